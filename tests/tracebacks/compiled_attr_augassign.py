class C:
    def __init__(self):
        self.count = 0

    def add(self, k):
        self.count += k
        self.total += k


C().add(1)
