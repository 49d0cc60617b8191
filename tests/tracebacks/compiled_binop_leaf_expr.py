def scale(items, k):
    total = 0
    for x in items:
        total = total + x * k
    return k + len(items) * total


def run(k):
    return scale([1, 2, 3], k) + 1


print(run(2))
print(run("a"))
