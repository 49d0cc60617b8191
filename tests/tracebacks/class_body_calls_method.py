class K:
    def m(self):
        return self.nope

    r = m(1)
