def put(xs, i, v):
    xs[i] = v
    return xs


print(put([1, 2], 1, 5))
print(put([1, 2], 2, 5))
