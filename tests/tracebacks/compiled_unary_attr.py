class P:
    def __init__(self):
        self.v = "text"


def neg(p):
    w = -p.v
    return w


neg(P())
