for x in 5:
    pass
