try:
    class K:
        y = [][3]
except IndexError:
    print("caught")


class Outer:
    class Inner:
        ok = 1

    def method(self):
        return 1 / 0


Outer().method()
