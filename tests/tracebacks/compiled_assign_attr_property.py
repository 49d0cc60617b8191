class P:
    @property
    def bad(self):
        return 1 / 0
    def __init__(self):
        self.v = 3
def f(o):
    a = o.v
    b = P().v
    print(a, b)
    c = o.bad
f(P())
