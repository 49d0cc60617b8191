class K:
    xs = [i for i in range(3)]
    ys = [1 / i for i in range(3)]
