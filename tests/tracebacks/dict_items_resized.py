def grow(d):
    for k, v in d.items():
        d[k * 10] = v


grow({1: "a", 2: "b"})
