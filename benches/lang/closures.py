# Calls of closures that read and write captured variables.
def make_counter():
    count = 0

    def inc(k):
        nonlocal count
        count += k
        return count

    return inc


def main():
    inc = make_counter()
    scale = 3
    f = lambda x: x * scale
    t = 0
    for i in range(500000):
        t = inc(1) + f(i)
    return t
