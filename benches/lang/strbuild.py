# String building: `s += "x"` (linear in CPython) and "".join.
def main():
    s = ""
    for i in range(200000):
        s += "x"
    parts = []
    for i in range(200000):
        parts.append(str(i))
    j = "".join(parts)
    return len(s) + len(j)
