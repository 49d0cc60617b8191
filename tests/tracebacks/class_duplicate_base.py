class A: pass
def deco(c): return c

@deco
class K(A, A):
    pass
