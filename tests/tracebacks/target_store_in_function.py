def put(xs, i):
    xs[i] = 0


put([1, 2, 3], 10)
