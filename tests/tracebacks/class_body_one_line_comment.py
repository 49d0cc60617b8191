class K: y = [][3]  # c
