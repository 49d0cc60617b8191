def pick(rows, i):
    out = []
    for r in rows:
        out.append(r[i] + rows[0][i])
    return out


print(pick([[1, 2], [3, 4]], 1))
print(pick([[1, 2], [3]], 1))
