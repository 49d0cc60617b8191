def make():
    n = 0

    def step(k):
        nonlocal n
        n += k
        return n

    return step


s = make()
print(s(1), s(2))
print(s("x"))
