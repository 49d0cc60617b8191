# A slice store that fails inside a function body (the compiled slice-store node).
def flip(perm, k):
    perm[:k + 1] = perm[k::-1]
    perm[::2] = perm[1:2]
    return perm


print(flip([3, 1, 2, 0], 2))
