def area(w, h):
    return w * h


def total(shapes):
    s = 0
    while shapes:
        w, h = shapes.pop()
        s += area(w, h)
    return s


print(total([(1, 2), (3, 4)]))
print(total([(1, 2), (3,)]))
