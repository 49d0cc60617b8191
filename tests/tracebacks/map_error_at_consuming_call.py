print(list(map(int, ["1", "a"])))
