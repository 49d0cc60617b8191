# %% all
# Call, dict-key, format and closure fast paths must mean what the general paths mean.

# dict and set keys: equal numbers are one key, whatever their type or size
d = {}
d[1] = 'int'
d[1.0] = 'float'
d[True] = 'bool'
print(d, len(d))
print(d[1], d[1.0], d[True], 1 in d, 1.5 in d, 2.0 in d)
s = {0, 0.0, False, -1, -1.0, 2 ** 40, float(2 ** 40), -2 ** 40}
print(sorted(s), len(s))
big = {}
for k in range(-300, 300, 7):
    big[k * 1024] = k
for k in range(0, 40):
    big[2 ** k] = -k
    big[-(2 ** k)] = k
big[2 ** 62] = 'top'
big[-2 ** 62 * 2] = 'bottom'
print(len(big), big[1024 * -293], big[2 ** 39], big[-(2 ** 39)], big[2 ** 62], big[-2 ** 62 * 2])
print(sum(1 for k in range(-300, 300, 7) if k * 1024 in big), 5 in big, 3 * 1024 in big)
strided = set(range(0, 2 ** 20 * 300, 2 ** 20))
print(len(strided), 2 ** 20 * 299 in strided, 2 ** 20 * 300 in strided, 7 in strided)
neg = {-i: i for i in range(1000)}
print(len(neg), neg[-999], -1000 in neg)
del big[1024 * 8]
print(1024 * 8 in big, len(big))
print(list({3: 'a', 1: 'b', 2: 'c'}), {5, 3, 9, 1})


class Num:
    def __init__(self, n):
        self.n = n

    def __hash__(self):
        return hash(self.n)

    def __eq__(self, other):
        return self.n == (other.n if isinstance(other, Num) else other)


m = {1: 'one', 2048: 'big'}
print(m[Num(1)], m[Num(2048)], Num(1) in m, Num(3) in m)
m[Num(2)] = 'two'
print(m[Num(2)], len(m))
print({5, 5.0, Num(5)} == {5}, len({5, 5.0, Num(5)}))

# a builtin method call site meets several types
for obj in ([3, 1, 2], (3, 1, 2), '312'):
    print(obj.index(obj[2]), obj.count(obj[0]))
for obj in ['ab', [1], 'cd']:
    try:
        obj.append(0)
        print(obj)
    except AttributeError as e:
        print('AttributeError', e)
words = {}
for w in ['a', 'b', 'a', 'c', 'a']:
    words[w] = words.get(w, 0) + 1
print(words)


# a global function rebound after its call site ran
def f(x):
    return x + 1


def call_f():
    return f(10)


print(call_f(), call_f())
f = lambda x: x * 2
print(call_f())
len = lambda x: 'shadowed'
print(len([1, 2]))
del len
print(len([1, 2]))
del f
try:
    call_f()
except NameError as e:
    print('NameError', e)


def two(a, b=5):
    return a + b


def calls():
    return [two(1), two(1, 2)]


print(calls())
try:
    two(1, 2, 3)
except TypeError as e:
    print(e)
try:
    two()
except TypeError as e:
    print(e)


# nonlocal numbers updated in place: the old value is read before the right side runs
def outer():
    n = 10
    x = 0.5

    def bump():
        nonlocal n
        n = 100
        return 1

    def go():
        nonlocal n, x
        n += bump()
        x *= 3
        n -= 2 ** 62
        n -= 2 ** 62
        return n, x

    return go()


print(outer())


def counter():
    count = 0

    def inc(k):
        nonlocal count
        count += k
        return count

    return inc


inc = counter()
print([inc(i) for i in range(5)])
try:
    inc('x')
except TypeError as e:
    print('TypeError', e)

# str.format and f-strings with plain fields
for i in (0, -7, 2 ** 62 - 1 + 2 ** 62, True, 2.5, 'txt', None, [1], ('a', 1)):
    print('<{}> <{!r}>'.format(i, i), f'[{i}] [{i!r}]')
for i in (0, -7, True, 2.5, 'txt'):
    print('{:>6}|{:<3}'.format(i, i), f'[{i:>6}]')
for k in range(12):
    print(('{}' + '-' * k + '{}').format(k, str(k)), end=' ')
print()
print('{0}{1}{0}'.format('ab', 3), '{:5}|{:<4}|'.format(42, 'x'), '{}'.format(True))
try:
    '{} {}'.format(1)
except IndexError as e:
    print('IndexError', e)
# %% local_object_call_sites
# A local's cached method and a slice of a local: the local is read again after the
# arguments, and a comprehension's own variable of the same name is another binding.
def f():
    l = [1]
    l.append([l for l in range(3)])
    print(l)
    d = {1: 2}
    print(d.get([d for d in range(2)][0], 'x'), d.get(1), d.get(5))
    s = [5, 6, 7]
    print(s[[s for s in range(1)][0]:2])
    s[[s for s in range(1)][0]:1] = [9]
    print(s)
    class L(list):
        def append(self, x):
            list.append(self, x * 2)
    for xs in ([], L(), [], L()):
        xs.append(3)
        print(type(xs).__name__, xs)
    class C:
        def m(self, k=1):
            return k
    c = C()
    print(c.m(), c.m(5))
    c.m = lambda: 'own'
    print(c.m())
    try:
        c.m(1)
    except TypeError as e:
        print('TypeError', e)
f()
# %% unpack_exact
def g():
    a, b = b, a = 1, 2
    print(a, b)
    x = [1, 2]
    x[0], x[1] = x[1], x[0]
    print(x)
    ([p, q, r], v, m) = ([1, 2, 3], (4,), 5)
    print(p, q, r, v, m)
    for (t, [u, w]) in [((1,), [2, 3]), ((4,), (5, 6))]:
        print(t, u, w)
    class Box:
        items = [1, 2]
        @property
        def first(self):
            return None
        @first.setter
        def first(self, v):
            Box.items.clear()
            print('set', v)
    bx = Box()
    bx.first, y = Box.items
    print(y, Box.items)
    for bad in ([1, 2, 3], (1,), 'ab'):
        try:
            i, j = bad
            print(i, j)
        except ValueError as e:
            print('ValueError', e)
g()

# %% fast_builtin_methods
# list.append/pop/insert, set.add and dict.get have a fast form (positional arguments as they
# lie); every other case goes the full way and must raise what CPython raises.
class S(str):
    pass
class L(list):
    pass
def run():
    xs = [1, 2, 3]
    xs.append(4)
    xs.insert(0, 0)
    xs.insert(-1, 'm')
    xs.insert(-100, 'head')
    xs.insert(100, 'tail')
    xs.insert(True, 'bool index')
    print(xs, xs.pop(), xs.pop(0), xs.pop(-2), xs.pop(True))
    s = set()
    for k in [1, 1.0, True, 'a', S('a'), (1, 2)]:
        s.add(k)
    print(sorted(map(str, s)), len(s))
    d = {'a': 1, 2: 'two', (1, 2): 't'}
    print(d.get('a'), d.get('zz'), d.get('zz', 0), d.get(2.0, 'x'), d.get(S('a'), 'sub'), d.get((1, 2)))
    w = {}
    for c in 'abracadabra':
        w[c] = w.get(c, 0) + 1
    print(w)
    ls = L([5, 6])
    ls.append(7)
    print(ls, ls.pop(), type(ls).__name__)
    holder = type('H', (), {})()
    holder.items = []
    for i in range(3):
        holder.items.append(i * i)
    print(holder.items, holder.items.pop(0), holder.items)
    # (A method of a plain local takes one path, of any other expression another.)
    def local_calls(k):
        e, one, st, dd = [], [1], set(), {}
        calls = [lambda: e.pop(), lambda: one.pop(5), lambda: one.pop(-2), lambda: one.pop('0'),
                 lambda: one.pop(0, 1), lambda: e.append(), lambda: e.append(1, 2),
                 lambda: e.insert(1), lambda: e.insert('a', 1), lambda: st.add([]),
                 lambda: st.add(), lambda: dd.get([]), lambda: dd.get(), lambda: dd.get(1, 2, 3)]
        return calls[k]
    def local_direct(k):
        e, one, st, dd = [], [1], set(), {}
        if k == 0:
            e.pop()
        elif k == 1:
            one.pop(5)
        elif k == 2:
            one.insert('a', 1)
        elif k == 3:
            st.add([])
        elif k == 4:
            dd.get([])
        else:
            dd.get(1, 2, 3)
    for k in range(14):
        try:
            local_calls(k)()
        except Exception as e:
            print(k, type(e).__name__, e)
    for k in range(6):
        try:
            local_direct(k)
        except Exception as e:
            print(k, type(e).__name__, e)
run()
xs = []
xs.pop()

# %% len_fast_path
class Sized:
    def __init__(self, n):
        self.n = n
    def __len__(self):
        return self.n
class Word(str):
    pass
def f():
    xs, t, d, s, w = [1, 2], (1,), {1: 2}, {3}, 'héllo'
    print(len(xs), len(t), len(d), len(s), len(w), len(Word('abc')), len(range(0, 10, 3)))
    print(len(Sized(4)), len([x for x in xs]), len(xs * 3), len(''))
    for bad in [lambda: len(5), lambda: len(), lambda: len(1, 2), lambda: len(Sized(-1)),
                lambda: len(Sized('a')), lambda: len(None)]:
        try:
            bad()
        except Exception as e:
            print(type(e).__name__, e)
f()
def len(x):
    return 'shadowed'
print(len([1]))
del len
print(len([1, 2, 3]))
n = 7
print(len(n))

# %% bound_builtin_methods
def g():
    xs = [0, 1, 2, 3]
    ins, pop, app = xs.insert, xs.pop, xs.append
    for r in range(3):
        ins(r, pop(0))
    app(9)
    print(xs, pop(), pop(-1), pop(True))
    s = set()
    add = s.add
    add(1); add(1.0); add('x')
    get = {'k': 1}.get
    print(sorted(map(str, s)), get('k'), get('z'), get('z', 5))
    for bad in [lambda: pop(10), lambda: pop('a'), lambda: ins(1), lambda: app(),
                lambda: add([]), lambda: get(), lambda: [].pop()]:
        try:
            bad()
        except Exception as e:
            print(type(e).__name__, e)
g()
