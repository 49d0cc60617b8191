y = list(x for x in 5)
