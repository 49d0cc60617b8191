print(list(map(lambda x: 1 / x, [1, 0])))
