def deco(x):
    return x

@deco
class K:
    x = undefined_name
