def f():
    class Inner:
        class Deeper:
            z = 1 / 0
    return Inner

f()
