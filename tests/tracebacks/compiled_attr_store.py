class Frozen:
    __slots__ = ("a",)


def fill(o, v):
    o.a = v
    o.b = v


fill(Frozen(), 3)
