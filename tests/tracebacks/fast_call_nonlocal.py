def counter():
    count = 0

    def inc(k):
        nonlocal count
        count += k
        return count

    return inc


def run(f, items):
    total = 0
    for x in items:
        total = f(x)
    return total


inc = counter()
print(run(inc, [1, 2, 3]))
run(inc, [4, "five"])
