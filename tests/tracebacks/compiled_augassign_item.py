def bump(counts, key):
    counts[key] += 1
    return counts


c = {"a": 0}
print(bump(c, "a"))
print(bump(c, "b"))
