# A slice bound that fails inside a function body: the error points at the bound.
def cut(xs, n):
    xs[:n] = xs[n:]
    xs[:n / 2] = []
    return xs


print(cut([1, 2, 3, 4], 2))
