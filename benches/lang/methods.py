# One million method calls on a small user class.
class Counter:
    def __init__(self):
        self.n = 0

    def bump(self, k):
        self.n += k
        return self.n


def main():
    c = Counter()
    for i in range(1000000):
        c.bump(1)
    return c.n
