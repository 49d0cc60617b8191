def f(xs):
    return [0 for xs[5] in [1]]
f([])
