# %% all
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
# %% comprehension_walks
# Comprehensions walk a range, list or tuple in place: they must see what an iterator sees.
print([i * 2 for i in range(10, 0, -3)], [i for i in range(0)], [i for i in range(-3, 3) if i % 2])
xs = [1, 2, 3]
print([xs.append(x + 10) or x for x in xs if x < 3], xs)
ys = [1, 2, 3, 4]
print([ys.pop() for _ in ys], ys)
print([(a, b) for a in (1, 2) for b in range(a)], {k: k * k for k in (3, 1)}, {v % 2 for v in [1, 2, 3]})
it = iter([1, 2, 3, 4])
print([x for x in it if x < 3], list(it))
g = (x * 10 for x in [5, 6, 7])
print(next(g), list(g))
z = 2
print([x for x in [0, 1, 2, 3] if x and x != z or x == 0], [x for x in range(5) if not x % 2])
try:
    print([1 for x in [1, 2] if x / 0])
except ZeroDivisionError as e:
    print("ZeroDivisionError", e)
try:
    print([x for x in 5])
except TypeError as e:
    print("TypeError", e)
# %% number_formats
# Fixed notation of exact values, ints in f-strings and str.format, float specs.
for v in [0.0, -0.0, 0.05, 2.5, 12.5, 0.125, 1e15, 1e16, 123456789.125, 2.675, -3.5, 1 / 3]:
    print(f"{v:.0f}|{v:.1f}|{v:.2f}|{v:.3f}|{v:10.4f}|{v:,.2f}|{v:+.2f}", "{:.5f}".format(v), "%.2f" % v)
print(f"{-12}|{0}|{2**62}|{-(2**62) * 2}", "{} + {} = {}".format(-5, 7, 2), "{0}{1}{0}".format(1, "a"))
w, p = 8, 3
print(f"{3.14159:{w}.{p}f}|{2.5:{w}}|{'s':>{w}}")
# %% exception_objects
class E(Exception):
    pass
class F(Exception):
    def __init__(self, a, b=2):
        super().__init__(a)
        self.b = b
class G:
    pass
for make in [lambda: E(x=1), lambda: G(1), lambda: F()]:
    try:
        make()
    except TypeError as e:
        print("TypeError", e)
print(E(1, 2).args, F(5).args, F(5, b=3).b, repr(E("x")), str(E()), E().args)
try:
    raise E("boom", 3)
except E as e:
    print(e.args, e, e.__dict__)
# %% spread_for_targets_and_dict_iterators
# `for a, b in zip/enumerate/d.items()` unpacks without a tuple; dict iterators are live.
d = {1: 'a', 2: 'b'}
print(type(iter(d.items())).__name__, type(iter(d.values())).__name__, type(iter(d)).__name__)
for k, v in d.items():
    d[k] = v + "!"
print(d)
for what in (d, d.keys(), d.values(), d.items()):
    try:
        for x in what:
            d[len(d) + 10] = 0
    except RuntimeError as e:
        print(type(what).__name__, e)
it = iter({1: 2})
next(it)
try:
    it2 = iter(d)
    next(it2)
    d.pop(1)
    next(it2)
except RuntimeError as e:
    print(e)
try:
    print(next(it2))
except RuntimeError as e:
    print("still:", e)
for i, (k, v) in enumerate({'x': 1, 'y': 2}.items(), start=5):
    print(i, k, v)
for a, [b, c] in zip("pq", [(1, 2), (3, 4)]):
    print(a, b, c)
for a, b, c in zip([1, 2, 3], "ab", iter([7, 8, 9])):
    print(a, b, c)
g = (n for n in range(5))
for x, y in zip(g, "ab"):
    print(x, y)
print(list(g))
try:
    for a, b in zip([1], [2], [3]):
        pass
except ValueError as e:
    print(e)
try:
    for a, b, c in enumerate("xy"):
        pass
except ValueError as e:
    print(e)
class Box:
    pass
box = Box()
for box.i, box.c in enumerate("ab"):
    pass
print(box.i, box.c)
seen = []
for seen_i, x in enumerate([10, 20, 30]):
    if x == 20:
        break
else:
    print("no break")
print(seen_i, x)
pop = [1, 2, 3].pop
ins = seen.insert
ins(0, pop())
ins(0, pop(0))
print(seen, pop(), pop.__name__)
try:
    pop(5)
except IndexError as e:
    print(e)
# %% native_sorts
import random
random.seed(5)
xs = [random.randint(-50, 50) for _ in range(300)]
print(sorted(xs) == sorted(xs, key=lambda v: v), sorted(xs)[:8], sorted(xs, reverse=True)[:8])
fs = [random.random() - 0.5 for _ in range(200)] + [0.0, -0.0, 0.0, -0.0]
print([repr(x) for x in sorted(fs) if x == 0], [repr(x) for x in sorted(fs, reverse=True) if x == 0])
print(sorted(["b", "a", "é", "Z", "ab", "", "zz", "ä", "😀", "a"], reverse=True))
pairs = [(v % 5, i) for i, v in enumerate(xs[:40])]
print(sorted(pairs, key=lambda p: p[0])[:10], sorted(pairs, key=lambda p: p[0], reverse=True)[:6])
print(sorted([3, 1.5, 2, True]), sorted([float('nan'), 1.0, 0.5]), sorted(range(9, 0, -2)))
try:
    sorted([1, "a"])
except TypeError as e:
    print(e)
