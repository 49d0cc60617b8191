# The interpreter's fast paths (leaf operands, list walks by index, method call-site caches,
# in-place subscripts) must mean what the general paths mean.

# leaf operands: locals and literals of every kind
def ops(a, b):
    return [a + b, a - b, a * b, a < b, a == b, a is b, a is not None, b is None, 2 - a, a - 2.5]

print(ops(3, 4))
print(ops(3.5, 1))
print(ops(True, False))
one, fone, nothing = 1, 1.0, None
print(one is fone, nothing is None, True is not False)


def unbound():
    try:
        return y + 1
    except NameError as e:
        print(type(e).__name__, e)
    y = 2

unbound()

# a list walked while it changes, and a tuple
xs = [1, 2, 3]
for x in xs:
    if x < 4:
        xs.append(x + 3)
print(xs)
ys = [1, 2, 3, 4, 5]
for y in ys:
    ys.remove(y)
print(ys)
for t in (1, 'a', None):
    print(t)
else:
    print('done')
for a, b in [(1, 2), (3, 4)]:
    print(a + b)


# method call sites: instance attributes shadow methods, class changes are seen
class C:
    def m(self):
        return 'C.m'


class D(C):
    pass


def call_all(objs):
    return [o.m() for o in objs]

c, d = C(), D()
print(call_all([c, d, c, d]))
d.m = lambda: 'instance'
print(call_all([c, d]))
C.m = lambda self: 'patched'
print(call_all([c, D()]))
D.m = lambda self: 'D.m'
print(call_all([c, D()]))
del D.m
print(call_all([c, D()]))

# in-place subscripts on locals
def bump(v, i):
    v[i] += 1
    v[0] *= 2
    v[-1] -= 0.5
    return v

print(bump([1, 2, 3.0], 1))
d2 = {'k': 1}
d2['k'] += 5
print(d2)
try:
    v = [1]
    v[3] += 1
except IndexError as e:
    print('IndexError', e)
s = 'héllo'
print(s[1], s[-1], 'abc'[2], 'abc'[-3])
