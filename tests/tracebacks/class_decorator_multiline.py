def deco(n):
    def inner(c):
        return c.missing
    return inner

@deco(
    3)
class K:
    pass
