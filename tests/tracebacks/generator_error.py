def g(n):
    for i in range(n):
        yield 10 // (2 - i)

def use():
    total = 0
    for v in g(5):
        total += v
    return total

use()
