class O:
    pass
def g(o):
    while o.missing is not None:
        pass
g(O())
