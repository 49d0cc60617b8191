class K:
    y = [][3]
