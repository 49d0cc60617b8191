# %% locals_cells_and_globals
# Inside functions, every read and store must mean what the tree-walker's means.
G = 10


def outer(a):
    b = a + 1
    c = [a, b]

    def inner(k):
        nonlocal b
        b += k
        return a + b + G + len(c)

    r1 = inner(1)
    r2 = inner(2.5)
    return r1, r2, b


print(outer(1), outer(2.0))


def shadow():
    len = lambda x: 42
    return len([1, 2])


print(shadow())


def use_global():
    global G
    G += 5
    return G * 2


print(use_global(), G)


def unbound(flag):
    if flag:
        v = 3
    try:
        return v
    except UnboundLocalError as e:
        return str(e)


print(unbound(True), unbound(False))

# %% operators_on_leaves_and_expressions
def ops(a, b):
    out = []
    out.append(a + b)
    out.append(a - 1)
    out.append(1 - a)
    out.append(a * (b + 1))
    out.append((a + 1) * b)
    out.append(a / b if b else None)
    out.append(a // 3 + a % 3)
    out.append(-a)
    out.append(not a)
    out.append(a ** 2)
    out.append(a == b or a < b)
    out.append(a is None)
    out.append(None is not a)
    return out


print(ops(7, 2))
print(ops(7.5, 0))
print(ops(True, False))
print(ops("x" if False else 3, 3))


def bad(a, b):
    try:
        return a + b
    except TypeError as e:
        return "TypeError: " + str(e)


print(bad(1, "a"), bad([1], (2,)), bad("a", "b"))


def catch(f, *args):
    try:
        return f(*args)
    except Exception as e:
        return type(e).__name__ + ": " + str(e)


def div(a, b):
    return a / b


def neg(a):
    return -a


def inv(a):
    return ~a


def cmp(a, b):
    return a < b


print(catch(div, 1, 0), catch(neg, "s"), catch(inv, 1.5), catch(cmp, 1, "a"))

# %% and_or_not_values_and_conditions
class Loud:
    def __init__(self, v):
        self.v = v

    def __bool__(self):
        print("bool", self.v)
        return self.v


def values(a, b):
    return (a and b), (a or b), (not a), (a and not b or b)


print(values(0, 5), values(3, []), values("", None))
print(values(Loud(True), Loud(False))[0].v)


def conds(x, y):
    out = []
    if x and y:
        out.append("both")
    if x or y:
        out.append("either")
    if not x:
        out.append("not x")
    if x < 3 and y is not None or x == 7:
        out.append("mixed")
    while x > 0 and y:
        x -= 1
        out.append(x)
    return out


print(conds(2, 1), conds(0, 0), conds(7, None))


def loud_conds(x, y):
    out = []
    if x and y:
        out.append("both")
    if x or y:
        out.append("either")
    if not x:
        out.append("not x")
    return out


print(loud_conds(Loud(False), Loud(True)))
print(conds(Loud(True), 1))


class Bad:
    def __bool__(self):
        raise ValueError("no truth")


def test_bad(o):
    try:
        if o:
            return 1
    except ValueError as e:
        return str(e)


print(test_bad(Bad()))

# %% calls_of_every_kind
def simple(a, b):
    return a * 10 + b


def defaults(a, b=5):
    return a + b


def star(*args):
    return args


class K:
    def __init__(self, n):
        self.n = n

    def m(self, k):
        return self.n + k

    def d(self, k=100):
        return self.n + k

    @staticmethod
    def s(x):
        return x * 2

    @classmethod
    def c(cls, x):
        return cls.__name__ + str(x)

    @property
    def p(self):
        return self.n * 3


def calls():
    k = K(1)
    xs = [3, 1, 2]
    pop = xs.pop
    app = xs.append
    f = simple
    g = lambda z: z + 1
    k.extra = lambda q: q * 7
    out = [simple(1, 2), defaults(1), defaults(1, 2), star(1, 2), f(2, 3), g(4)]
    out += [k.m(1), k.d(), k.d(2), k.s(4), k.c(5), k.p, k.extra(2)]
    out += [pop(), pop(0), len(xs), str(5), int("7"), abs(-3), max(1, 9, 4)]
    app(11)
    out += [xs, len("abc"), sorted(xs), K(4).m(1)]
    return out


print(calls())


def bad_calls():
    out = []
    for f, args in [(simple, (1,)), (simple, (1, 2, 3)), (len, (5,)), (K(1).m, ())]:
        try:
            out.append(f(*args))
        except TypeError as e:
            out.append(str(e))
    return out


print(bad_calls())


def recurse(n):
    return n if n < 2 else recurse(n - 1) + recurse(n - 2)


print(recurse(15))

# %% attributes_and_items
class Slot:
    __slots__ = ("a",)


class Watch:
    def __setattr__(self, name, value):
        print("set", name, value)
        object.__setattr__(self, name, value)


class Prop:
    def __init__(self):
        self._x = 0

    @property
    def x(self):
        return self._x

    @x.setter
    def x(self, v):
        self._x = v * 2


def attrs():
    out = []
    s = Slot()
    s.a = 1
    out.append(s.a)
    try:
        s.b = 2
    except AttributeError as e:
        out.append(str(e))
    w = Watch()
    w.q = 5
    out.append(w.q)
    p = Prop()
    p.x = 4
    p.x += 1
    out.append(p.x)
    d = {"k": 1}
    d["k"] += 2
    d["n"] = [0, 0]
    d["n"][1] += 5
    out.append(d)
    xs = [1, 2, 3]
    xs[0] += 10
    xs[-1] *= 3
    out.append(xs)
    out.append(xs[-2] + xs[0])
    t = (4, 5)
    out.append(t[1] + "abc"[1:].__len__())
    for bad in ["xs[7]", "d['zz']", "t[0] = 1"]:
        try:
            if bad == "xs[7]":
                out.append(xs[7])
            elif bad == "d['zz']":
                out.append(d["zz"])
            else:
                t[0] = 1
        except (IndexError, KeyError, TypeError) as e:
            out.append(type(e).__name__ + str(e))
    return out


print(attrs())


def strings(n):
    s = ""
    for i in range(n):
        s += str(i)
    t = "x"
    t += 5 * "y"
    return s, t, len(s)


print(strings(12))

# %% loops_and_comprehensions
def loops():
    out = []
    for i in range(3):
        if i == 1:
            continue
        out.append(i)
    else:
        out.append("done")
    for ch in "ab":
        out.append(ch)
    for k, v in {"a": 1, "b": 2}.items():
        out.append(k * v)
    for i, (a, b) in enumerate([(1, 2), (3, 4)]):
        out.append(i + a + b)
    n = 0
    while True:
        n += 1
        if n > 4:
            break
    else:
        out.append("never")
    out.append(n)
    for x in (y * 2 for y in range(3)):
        out.append(x)
    return out


print(loops())


def comps(k):
    fs = [lambda: i * k for i in range(3)]
    return (
        [x * k for x in range(4) if x % 2],
        {x: x * k for x in "ab"},
        {x % k for x in range(10)},
        [f() for f in fs],
        [(a, b) for a in range(2) for b in range(a, 2)],
        sum(x * x for x in range(k)),
    )


print(comps(3))


def early(xs):
    for x in xs:
        while x:
            if x > 2:
                return x
            x -= 1
    return None


print(early([1, 2, 5]), early([0]))

# %% evaluation_order_and_slices
def noisy(tag, v):
    print("eval", tag)
    return v


def order(flag):
    if flag:
        xs = [1, 2, 3]
    try:
        return xs[noisy("index", 0)]
    except UnboundLocalError as e:
        return "load: " + str(e)


print(order(True), order(False))


def store_order(flag):
    if flag:
        xs = [1, 2, 3]
    try:
        xs[noisy("index", 1) + 1] = noisy("value", 9)
        return xs
    except UnboundLocalError as e:
        return "store: " + str(e)


print(store_order(True), store_order(False))


def slices(xs, k):
    a = xs[:]
    b = xs[k::-1]
    c = xs[noisy("lo", 1):noisy("hi", -1)]
    a[:k + 1] = b
    xs[k + 1] = "new"
    return a, b, c, xs, "text"[1:3], (1, 2, 3)[::2]


print(slices([0, 1, 2, 3, 4], 2))
try:
    slices(5, 1)
except TypeError as e:
    print(e)

# %% try_in_compiled_bodies
def risky(x):
    if x == 0:
        raise ValueError("zero")
    return 10 // x


def tries(xs):
    out = []
    for x in xs:
        try:
            v = risky(x)
        except ValueError as e:
            out.append("value " + str(e))
            continue
        except ZeroDivisionError:
            out.append("never")
        else:
            out.append(v)
        finally:
            out.append("fin")
        if x == 5:
            break
    try:
        e
    except NameError as err:
        out.append(type(err).__name__)
    return out


print(tries([1, 0, 5, 7]))


def finally_wins():
    for i in range(3):
        try:
            return i
        finally:
            if i == 0:
                continue
    return "end"


print(finally_wins())


def chained():
    try:
        try:
            {}["k"]
        except KeyError:
            raise RuntimeError("while handling")
    except RuntimeError as e:
        return repr(e), repr(e.__context__), e.__suppress_context__


print(chained())


def reraise(n):
    count = 0
    while True:
        try:
            count += 1
            if count > n:
                raise StopIteration
        except StopIteration:
            return count


print(reraise(3))


# %% slice_stores_bools_and_declarations
# Slice stores run compiled: value, container, then the bounds in order; every error as
# the tree-walker's. True/False are constants; global/nonlocal run nothing.
def show(tag, v):
    print("eval", tag)
    return v


class Rec:
    def __setitem__(self, k, v):
        print("setitem", k, v)


def stores(xs):
    xs[show("lo", 1):show("hi", 3)] = show("value", [7, 8, 9])
    xs[::2] = [0] * len(xs[::2])
    xs[len(xs):] = (10, 11)
    xs[:0] = "ab"
    ys = list(range(8))
    k = 3
    ys[:k + 1] = ys[k::-1]
    ys[-2:] = []
    r = Rec()
    r[1:k:2] = True
    r[:] = False
    return xs, ys


print(stores([1, 2, 3, 4, 5]))


def bad_step(xs):
    try:
        xs[::2] = [1]
    except ValueError as e:
        print("ValueError:", e)
    try:
        xs[::0] = []
    except ValueError as e:
        print("ValueError:", e)
    try:
        xs["a":] = []
    except TypeError as e:
        print("TypeError:", e)
    try:
        t = (1, 2)
        t[0:1] = [5]
    except TypeError as e:
        print("TypeError:", e)
    try:
        xs[0:1] = 5
    except TypeError as e:
        print("TypeError:", e)
    try:
        nope[0:1] = [show("before the unbound container", 1)]
    except NameError as e:
        print("NameError:", e)
    return xs


print(bad_step([1, 2, 3, 4]))

X = 1


def declare():
    global X
    X = X + 1


def only_declare():
    global X


def counter():
    n = 0

    def bump():
        nonlocal n
        n += 1
        return n == 2, not n, True and n

    return bump


print(declare(), X, only_declare())
b = counter()
print(b(), b(), b())


def flags(v):
    seen = False
    while not seen:
        seen = True if v else False
        v = not v
    return seen is True, [True, False, None]


print(flags(0), flags(1))


def not_iterable(xs):
    for target in ("plain", "extended", "bad bound"):
        try:
            if target == "plain":
                xs[0:1] = 5
            elif target == "extended":
                xs[::2] = 5
            else:
                xs["a":] = 5
        except TypeError as e:
            print(target, "TypeError:", e)


not_iterable([1, 2, 3])
xs = [1, 2]
try:
    xs[:1] = None
except TypeError as e:
    print("module level TypeError:", e)

# %% slot_windows_deep_recursion_generators_errors
# Calls take windows of one block of locals: beyond it (900 frames of 91 locals), after a
# RecursionError, through generators and raised errors, every local stays its own.
def many(n):
    a0=a1=a2=a3=a4=a5=a6=a7=a8=a9=b0=b1=b2=b3=b4=b5=b6=b7=b8=b9=c0=c1=c2=c3=c4=c5=c6=c7=c8=c9=n
    d0=d1=d2=d3=d4=d5=d6=d7=d8=d9=e0=e1=e2=e3=e4=e5=e6=e7=e8=e9=f0=f1=f2=f3=f4=f5=f6=f7=f8=f9=n
    g0=g1=g2=g3=g4=g5=g6=g7=g8=g9=h0=h1=h2=h3=h4=h5=h6=h7=h8=h9=i0=i1=i2=i3=i4=i5=i6=i7=i8=i9=n
    if n == 0:
        return 0
    return many(n - 1) + a0 + i9 - n + 1
print(many(900))
def rec(n):
    x = [n]
    return rec(n + 1)
try:
    rec(0)
except RecursionError as e:
    print("RecursionError", e)
print(many(900))
def gen(n):
    for i in range(n):
        yield helper(i)
def helper(i):
    t = i * 2
    return t
print(sum(gen(1000)), list(gen(3)))
def boom(k):
    y = k
    if k == 0:
        raise ValueError("deep")
    return boom(k - 1)
for _ in range(3):
    try:
        boom(50)
    except ValueError as e:
        print("caught", e)
def unbound(flag):
    if flag:
        z = 1
    return z
print(unbound(True))
try:
    unbound(False)
except UnboundLocalError as e:
    print("UnboundLocalError:", e)
class C:
    def __init__(self, v):
        self.v = v
    def get(self):
        return self.v
print(sum(C(i).get() for i in range(100)))
def f(a, b=2):
    return a + b
print(f(1), f(1, 5))
try:
    f()
except TypeError as e:
    print(e)
try:
    f(1, 2, 3)
except TypeError as e:
    print(e)
def outer():
    v = 10
    def inner(k):
        return k + v
    return [inner(i) for i in range(3)]
print(outer())
# %% slice_to_slice_copies
def flips(n):
    p = list(range(n))
    out = []
    for k in range(n - 1, 0, -1):
        p[:k + 1] = p[k::-1]
        out.append(p[:])
    return out
print(flips(5))
def shapes():
    a = list(range(10))
    a[2:5] = a[7:]          # shorter into longer: spliced
    print(a)
    a[:1] = a[-3:]          # longer into shorter
    print(a)
    a[::2] = a[1::2]        # extended slices of equal size
    print(a)
    a[1:3] = (9, 8, 7)[::2] # from a tuple
    print(a)
    a[:2] = "xyz"[1:]       # from a string
    print(a)
    a[5:] = a[:0]           # empty: deletes
    print(a)
    try:
        a[::3] = a[:1]
    except ValueError as e:
        print("ValueError:", e)
    print(a)
    try:
        a[:1] = a[1:"x"]
    except TypeError as e:
        print("TypeError:", e)
    try:
        a[:"y"] = a[1:]
    except TypeError as e:
        print("TypeError:", e)
    print(a)
shapes()
class Seq:
    def __init__(self):
        self.log = []
    def __getitem__(self, k):
        self.log.append(("get", k.start, k.stop, k.step))
        return [k.start, k.stop]
    def __setitem__(self, k, v):
        self.log.append(("set", k.start, k.stop, v))
def custom():
    s, a = Seq(), [1, 2, 3, 4]
    a[:2] = s[7:8]
    s[1:2] = a[:3]
    s[::2] = s[:1]
    print(a, s.log)
custom()
order = []
def at(v):
    order.append(v)
    return v
def evaluation_order():
    a, b = list(range(6)), list(range(10, 16))
    a[at(1):at(3)] = b[at(2):at(4):at(1)]
    print(a, order)
    try:
        a[:1] = 5[at(0):]
    except TypeError as e:
        print("TypeError:", e, order)
    try:
        missing[at(7):] = a[at(8):]
    except NameError as e:
        print("NameError:", e, order)
evaluation_order()
def unbound_target():
    src = [1, 2]
    try:
        dst[:1] = src[:1]
    except UnboundLocalError as e:
        print("UnboundLocalError:", e)
    dst = [0]
    dst[:1] = src[:]
    return dst
print(unbound_target())
big = list(range(5000))
big[:4000] = big[999:4999]
print(big[:3], big[3998:4002], len(big))
big[::-1] = big[:]
print(big[:3], len(big))
# %% compiled_unpacking_targets
G = None
def loops(pairs):
    global G
    out = []
    for (([x1, y1], v1), ([x2, y2], v2)) in pairs:
        out.append((x1 + x2, y1 * y2, v1, v2))
    for a, [b, c] in [(1, [2, 3]), [4, (5, 6)]]:
        out.append(a + b + c)
    for G, k in [(7, 8)]:
        out.append(k)
    out.append(G)
    return out
print(loops([(([1, 2], "a"), ([3, 4], "b")), [[(5, 6), "c"], [[7, 8], "d"]]]))
class Box:
    pass
def mixed():
    b, xs, d = Box(), [0, 0, 0], {}
    for b.first, xs[1], d["k"] in [(1, 2, 3), (4, 5, 6)]:
        pass
    print(b.first, xs, d)
    p, (q, r) = 1, [2, 3]
    [s, t], u = "ab", 9
    print(p, q, r, s, t, u)
    head, *rest = range(4)
    print(head, rest)
    for first, *more in [[1, 2, 3], (4,)]:
        print(first, more)
mixed()
def closures():
    fs = []
    for i, j in [(1, 2), (3, 4)]:
        fs.append(lambda: i + j)
    return [f() for f in fs]
print(closures())
def errors():
    for bad in [[(1, 2, 3)], [(1,)], [5], [([1], 2)], [((1, 2), 3, 4)]]:
        try:
            for (a, b), c in [(x, 0) for x in bad] if bad != [5] else bad:
                print("ok", a, b, c)
        except (TypeError, ValueError) as e:
            print(type(e).__name__ + ":", e)
    try:
        a, (b, c) = 1, (2, 3, 4)
    except ValueError as e:
        print("ValueError:", e, a)
    try:
        x, y = 1
    except TypeError as e:
        print("TypeError:", e)
    class Odd:
        def __iter__(self):
            return iter([10, 20])
    x, y = Odd()
    print(x, y)
    def gen():
        yield 1
        yield [2, 3]
    q, [r, s] = gen()
    print(q, r, s)
errors()
def list_changes():
    xs = [1, 2]
    seen = []
    for a, b in [xs, xs]:
        xs.append(len(xs))
        seen.append((a, b))
    print(seen)
list_changes()
