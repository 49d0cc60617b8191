class Counter:
    def __init__(self):
        self.counts = {}

    def get(self, key):
        return self.counts[key]

c = Counter()
c.get("missing")
