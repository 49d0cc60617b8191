class Grid:
    def __setitem__(self, key, value):
        raise KeyError(key)


g = Grid()
g["row"] = 1
