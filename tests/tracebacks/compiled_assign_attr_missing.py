def g(o):
    x = o.nope
    return x
def h():
    y = q.v
    q = 1
try:
    h()
except UnboundLocalError as e:
    print("UnboundLocalError", e)
g(1)
