def trim(xs):
    del xs[::0]


trim([1, 2])
