def deco(f):
    raise ValueError("no")

@deco
def g():
    pass
