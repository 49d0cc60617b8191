x = 1
class K:
    if x:
        raise KeyError("k")
