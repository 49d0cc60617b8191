# List comprehensions: one million elements in all.
def main():
    t = 0
    for _ in range(10):
        xs = [i * 2 for i in range(50000)]
        ys = [x for x in xs if x % 3 == 0]
        t += len(xs) + len(ys)
    return t
