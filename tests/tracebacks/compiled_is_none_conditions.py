def h(a, b):
    return a.x if b is not None else None
class O:
    x = 3
print(h(O(), 1), h(O(), None))
def k():
    r = []
    p = None
    for i in range(3):
        if p is None:
            r.append(i)
            p = i
        elif p is not None and i is not None:
            r.append(-i)
    return r
print(k())
h(1, 2)
