def clamp(x, lo):
    if x < lo and lo is not None:
        return lo
    return x


print(clamp(1, 5), clamp(9, 5))
print(clamp(3, None))
