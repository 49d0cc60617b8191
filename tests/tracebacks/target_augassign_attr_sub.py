class Box:
    def __init__(self):
        self.items = [0]


b = Box()
b.items[4] += 1
