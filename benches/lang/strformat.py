# str.format and f-strings.
def main():
    n = 0
    for i in range(100000):
        a = "{} + {} = {}".format(i, i, i + i)
        b = f"item {i}: {i * 0.5:.2f}"
        n += len(a) + len(b)
    return n
