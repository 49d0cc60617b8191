class Factory:
    def build(self, n):
        class Made:
            size = n
            half = size // (n - n)
        return Made


Factory().build(4)
