def add_all(objs):
    for o in objs:
        o.add(1)
    return len(objs)


print(add_all([set(), {2}]))
add_all([set(), [1]])
