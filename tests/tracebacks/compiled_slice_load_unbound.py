def g(n):
    if n:
        return ys[1:n]
    ys = [1]
g(1)
