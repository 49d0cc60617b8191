# Dict insert and lookup, and set operations.
def main():
    d = {}
    for i in range(500000):
        d[i] = i
    t = 0
    for i in range(500000):
        t += d[i]
    s = set()
    for i in range(300000):
        s.add(i % 1000)
    n = 0
    for i in range(300000):
        if i in s:
            n += 1
    words = {}
    for w in ["a", "b", "c", "d"] * 50000:
        words[w] = words.get(w, 0) + 1
    return t + n + len(words)
