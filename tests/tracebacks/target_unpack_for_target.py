rows = [[0], [1]]
for rows[0][3] in [1, 2]:
    pass
