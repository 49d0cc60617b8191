# A nested for-loop target unpacked in a function body (the compiled store): the second
# item has the wrong shape.
def total(pairs):
    s = 0
    for ([a, b], c) in pairs:
        s += a * b + c
    return s


print(total([([1, 2], 3), ([4, 5, 6], 7)]))
