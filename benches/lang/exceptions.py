# Exceptions raised and caught in a loop.
class MyError(Exception):
    pass


def check(i):
    if i % 2:
        raise MyError("odd")
    raise ValueError("even")


def main():
    n = 0
    for i in range(100000):
        try:
            check(i)
        except MyError:
            n += 1
        except ValueError as e:
            n += 2
    return n
