class P:
    @property
    def attr(self):
        return 1

    @attr.setter
    def attr(self, v):
        raise ValueError("bad value")


obj = P()
v = 3
obj.attr = v
