xs = [1, 2, 3]
print("len", len(xs))
value = xs[10]
