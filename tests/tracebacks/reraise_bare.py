def load(n):
    try:
        return [0, 1][n]
    except IndexError:
        print("could not load", n)
        raise

load(5)
