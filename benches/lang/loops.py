# A `for` loop in a function: local arithmetic over a range and over a list.
def main():
    t = 0
    for i in range(1000000):
        t += i * 2 - 1
    xs = list(range(200000))
    u = 0
    for x in xs:
        if x & 1:
            u += x
    return t + u
