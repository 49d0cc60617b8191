class S:
    def __setattr__(self, name, value):
        raise AttributeError("read-only " + name)


obj = S()
obj.attr = 5
