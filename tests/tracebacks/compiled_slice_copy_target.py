# A slice-to-slice copy whose target is no container (the write half of the copy node).
def copy(src, dst):
    src[:1] = src[1:]
    dst[1:] = src[:2]
    return dst


print(copy([1, 2, 3], 7))
