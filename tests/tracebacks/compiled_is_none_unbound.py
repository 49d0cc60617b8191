def f():
    if x is None:
        return 1
    x = 2
f()
