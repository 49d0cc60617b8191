def deco(cls):
    raise ValueError("no")

@deco
class K:
    pass
