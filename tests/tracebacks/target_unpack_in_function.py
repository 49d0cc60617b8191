def f():
    x, y = 1, 2, 3
    return x


f()
