def f(n):
    xs = [1, 2, 3, 4]
    ys = xs[1:n]
    zs = xs[::-1][n:]
    print(ys, zs, xs[n::-1], (5, 6, 7)[1:])
    return xs[1:missing]
f(2)
