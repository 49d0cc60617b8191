print(x for x in [1] 5)
