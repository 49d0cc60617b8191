def show(items):
    out = []
    for x in items:
        out.append("{} = {:>4}".format(x, x))
    return out


print(show([1, "a"]))
show([2, None])
