class Box:
    def __init__(self, n):
        self.n = n

    def grow(self, k):
        self.n += k
        return self


def use(b):
    b.grow(1).grow(2)
    return b.shrink(1)


print(use(Box(1)).n)
