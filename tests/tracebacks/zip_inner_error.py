def gen():
    yield 1
    raise ValueError("bad item")


def main():
    total = 0
    for a, b in zip([1, 2], gen()):
        total += a + b
    return total


main()
