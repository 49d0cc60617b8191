def helper(n):
    return n + "x"

class K:
    a = 1
    b = helper(a)
