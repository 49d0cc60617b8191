xs = [1, 2]
del xs[9]
