# Attribute get/set on an instance, one million times.
class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y


def main():
    p = Point(0, 0)
    for i in range(1000000):
        p.x = p.y + i
        p.y = p.x - i
    return p.x
