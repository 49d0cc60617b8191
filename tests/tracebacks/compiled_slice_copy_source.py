# A slice-to-slice copy whose source slice fails (the read half of the copy node).
def flip(perm, k):
    perm[:k + 1] = perm[k::-1]
    perm[:1] = perm[k:"end"]
    return perm


print(flip([3, 1, 2, 0], 2))
