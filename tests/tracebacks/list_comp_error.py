xs = [1, 2, 0, 4]
inv = [1 / x for x in xs]
print(inv)
