# %% dict_subclass_basics
class D(dict):
    pass
d = D(a=1)
d['b'] = 2
print(d, len(d), isinstance(d, dict), type(d).__name__, type(d) is D)
print('a' in d, 'z' in d, list(d), d.get('b'), d.get('z', 0))
# %% dict_subclass_methods
class D(dict):
    pass
d = D({'x': 1})
d.update(y=2)
d.update([('z', 3)])
print(d.items(), d.keys(), d.values())
print(d.pop('x'), d.setdefault('w', 4), d.copy(), type(d.copy()).__name__)
d.clear()
print(d, bool(d), len(d))
# %% dict_subclass_iteration
class D(dict):
    pass
d = D(a=1, b=2)
for k in d:
    print(k, d[k])
for k, v in d.items():
    print(k, v)
print(sorted(d), list(reversed(list(d))), dict(d), {**d, 'c': 3})
# %% dict_subclass_repr_default
class D(dict):
    pass
d = D(a=[1, 2])
print(d, repr(d), str(d), f"{d}", [d], (d,))
# %% dict_subclass_repr_override
class D(dict):
    def __repr__(self):
        return 'D' + dict.__repr__(self)
d = D(a=1)
print(d, [d], str(d))
# %% dict_subclass_missing
class Zero(dict):
    def __missing__(self, key):
        return 0
z = Zero(a=5)
print(z['a'], z['b'], 'b' in z, z.get('b'), z)
# %% dict_subclass_missing_stores
class Auto(dict):
    def __missing__(self, key):
        self[key] = v = key * 2
        return v
a = Auto()
print(a['x'], a[3], a)
# %% dict_subclass_keyerror
class D(dict):
    pass
d = D(a=1)
d['missing']
# %% dict_subclass_setitem_override
class Upper(dict):
    def __setitem__(self, key, value):
        super().__setitem__(key.upper(), value)
u = Upper()
u['a'] = 1
u['b'] = 2
print(u, len(u), u['A'])
# %% dict_subclass_getitem_override
class Default(dict):
    def __getitem__(self, key):
        if key in self:
            return super().__getitem__(key)
        return 'none'
d = Default(x=1)
print(d['x'], d['y'], d.get('y'))
# %% dict_subclass_init_super
class Config(dict):
    def __init__(self, name, **kw):
        super().__init__(**kw)
        self.name = name
c = Config('cfg', lr=0.1, epochs=3)
print(c, c.name, c['lr'], isinstance(c, Config), c.__dict__)
# %% dict_subclass_attr_access
class AttrDict(dict):
    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name)
a = AttrDict(lr=0.01)
print(a.lr, a['lr'], hasattr(a, 'momentum'))
# %% dict_subclass_equality
class D(dict):
    pass
print(D(a=1) == {'a': 1}, {'a': 1} == D(a=1), D(a=1) == D(a=1), D(a=1) != D(a=2), D() == {})
# %% dict_subclass_unhashable
class D(dict):
    pass
hash(D())
# %% dict_subclass_missing_method
class D(dict):
    pass
D().nothing()
# %% dict_subclass_unbound_methods
class D(dict):
    pass
d = D()
dict.__setitem__(d, 'k', 1)
print(dict.__getitem__(d, 'k'), dict.get(d, 'k'), dict.keys(d), len(d))
# %% dict_subclass_kwargs_unpack
class D(dict):
    pass
def f(**kw):
    return kw
print(f(**D(a=1, b=2)))
# %% dict_subclass_of_subclass
class A(dict):
    def describe(self):
        return f'{type(self).__name__} with {len(self)}'
class B(A):
    pass
b = B(x=1)
print(b.describe(), isinstance(b, A), isinstance(b, dict), B.__mro__)
# %% list_subclass_basics
class L(list):
    pass
l = L([3, 1, 2])
l.append(5)
l.extend([4])
print(l, len(l), l[0], l[-1], isinstance(l, list), type(l).__name__)
print(sorted(l), sum(l), min(l), max(l), list(l), tuple(l), [*l])
# %% list_subclass_slicing
class L(list):
    pass
l = L(range(6))
s = l[1:4]
print(s, type(s).__name__, l[::2], type(l + [9]).__name__, l * 2)
# %% list_subclass_mutation
class L(list):
    pass
l = L([1, 2, 3])
l[0] = 10
del l[1]
l.insert(0, 0)
l += [7]
print(l, type(l).__name__, l.pop(), l.index(10), l.count(3), 3 in l)
l.sort(reverse=True)
print(l)
# %% list_subclass_append_override
class Doubling(list):
    def append(self, x):
        super().append(x * 2)
d = Doubling()
for i in range(3):
    d.append(i)
print(d, len(d))
# %% list_subclass_iteration
class L(list):
    pass
l = L('abc')
for i, x in enumerate(l):
    print(i, x)
print(','.join(l), list(zip(l, L([1, 2, 3]))), 'b' in l)
# %% list_subclass_compare
class L(list):
    pass
print(L([1, 2]) == [1, 2], [1, 2] == L([1, 2]), L([1]) < L([2]), L() == L(), L([1]) != [1])
# %% list_subclass_extra_attr
class Stack(list):
    def __init__(self, name):
        super().__init__()
        self.name = name
    def push(self, x):
        self.append(x)
        return self
s = Stack('s')
s.push(1).push(2)
print(s, s.name, len(s), s.pop(), s)
# %% list_subclass_repr_override
class L(list):
    def __repr__(self):
        return f'L({list.__repr__(self)})'
print(L([1, 2]), [L([3])])
# %% list_subclass_add_error
class L(list):
    pass
L([1]) + 5
# %% list_subclass_unhashable
class L(list):
    pass
{L(): 1}
# %% tuple_subclass_new
class Pair(tuple):
    def __new__(cls, a, b):
        return super().__new__(cls, (a, b))
    def first(self):
        return self[0]
p = Pair(1, 2)
a, b = p
print(p, a, b, p.first(), len(p), isinstance(p, tuple), type(p).__name__)
# %% tuple_subclass_hash_eq
class T(tuple):
    pass
t = T([1, 2])
print(t == (1, 2), (1, 2) == t, hash(t) == hash((1, 2)), {t: 'x'}[(1, 2)], {(1, 2): 'y'}[t])
print(t in {(1, 2)}, (1, 2) in {t}, t + (3,), type(t + (3,)).__name__, t[0:1])
# %% tuple_subclass_property
class Point(tuple):
    def __new__(cls, x, y):
        return tuple.__new__(cls, (x, y))
    @property
    def x(self):
        return self[0]
    @property
    def y(self):
        return self[1]
    def __repr__(self):
        return f'Point({self.x}, {self.y})'
p = Point(3, 4)
print(p, p.x + p.y, [p], sorted([Point(2, 1), Point(1, 2)]))
# %% tuple_subclass_too_many_args
class T(tuple):
    pass
T(1, 2)
# %% set_subclass
class S(set):
    pass
s = S([1, 2, 2, 3])
s.add(4)
print(sorted(s), len(s), 2 in s, isinstance(s, set), type(s).__name__, s == {1, 2, 3, 4})
# %% str_subclass
class Name(str):
    def shout(self):
        return self.upper() + '!'
n = Name('bob')
print(n, repr(n), n.shout(), len(n), n + 'by', isinstance(n, str), n == 'bob', f'{n:>5}|')
print({n: 1}['bob'], 'o' in n, n[0], list(n), type(n.upper()).__name__)
# %% int_subclass
class Count(int):
    pass
c = Count(5)
print(c, c + 1, 1 + c, c * 2, c - 1, 10 - c, c // 2, c % 3, c ** 2, -c, abs(Count(-3)))
print(isinstance(c, int), c == 5, c < 6, hash(c) == hash(5), int(c), float(c), f'{c:03d}', range(c))
# %% int_subclass_repr_override
class Flag(int):
    def __repr__(self):
        return f'Flag({int(self)})'
f = Flag(2)
print(f, str(f), [f], f'{f}', f + 1)
# %% float_subclass
class Meters(float):
    def __repr__(self):
        return f'{float(self)}m'
m = Meters(1.5)
print(m, m * 2, m + 1, isinstance(m, float), round(m), m > 1)
# %% counter_is_dict
from collections import Counter
c = Counter('hello')
print(isinstance(c, dict), c, c['l'], c['z'], len(c), dict(c))
print(c.most_common(1), sorted(c.elements()), c.total())
# %% counter_dict_methods
from collections import Counter
c = Counter(a=2, b=1)
print(list(c.keys()), list(c.values()), c.get('a'), c.get('q', -1), 'a' in c)
c['c'] += 3
del c['zz']
print(c, c == {'a': 2, 'b': 1, 'c': 3}, {**c})
# %% counter_arith
from collections import Counter
a = Counter(x=3, y=1)
b = Counter(x=1, y=2)
print(a + b, a - b, a | b, a & b, -b, +Counter(q=-1, r=2))
a += b
print(a)
# %% counter_json_like_print
from collections import Counter
c = Counter(['b', 'a', 'b'])
for k, v in sorted(c.items()):
    print(k, v)
print(repr(Counter()), str(c))
# %% defaultdict_is_dict
from collections import defaultdict
d = defaultdict(list)
d['a'].append(1)
d['a'].append(2)
d['b']
print(isinstance(d, dict), d, dict(d), len(d), d.default_factory)
# %% defaultdict_int_and_none
from collections import defaultdict
d = defaultdict(int)
for ch in 'banana':
    d[ch] += 1
print(d, sorted(d.items()))
n = defaultdict()
print(n, n.default_factory)
n['x']
# %% defaultdict_copy_get
from collections import defaultdict
d = defaultdict(set, {'a': {1}})
e = d.copy()
e['b'].add(2)
print(d, e, d.get('zz'), 'zz' in d)
# %% ordereddict_is_dict
from collections import OrderedDict
o = OrderedDict([('a', 1), ('b', 2)])
o['c'] = 3
print(isinstance(o, dict), o, o.keys(), list(o.items()), len(o), dict(o))
# %% ordereddict_order_methods
from collections import OrderedDict
o = OrderedDict.fromkeys('abc', 0)
o.move_to_end('a')
print(o)
o.move_to_end('c', last=False)
print(o, o.popitem(), o.popitem(last=False), o)
print(OrderedDict(a=1, b=2) == OrderedDict(b=2, a=1), OrderedDict(a=1, b=2) == {'b': 2, 'a': 1})
# %% namedtuple_is_tuple
from collections import namedtuple
Point = namedtuple('Point', ['x', 'y'])
p = Point(1, y=2)
print(isinstance(p, tuple), p, p.x, p[1], len(p), p == (1, 2), tuple(p), list(p))
x, y = p
print(x, y, Point._fields, p._asdict(), p._replace(y=5), Point._make([7, 8]))
# %% namedtuple_hash_sort
from collections import namedtuple
P = namedtuple('P', 'a b')
s = {P(1, 2), (1, 2), P(0, 0)}
print(len(s), sorted([P(2, 1), P(1, 5)]), hash(P(1, 2)) == hash((1, 2)), max(P(3, 9)))
# %% namedtuple_subclass
from collections import namedtuple
class V(namedtuple('V', 'x y')):
    def norm2(self):
        return self.x ** 2 + self.y ** 2
v = V(3, 4)
print(v, v.norm2(), isinstance(v, tuple), v + (5,), v._replace(x=0))
# %% builtins_accept_subclasses
class L(list):
    pass
class D(dict):
    pass
class T(tuple):
    pass
print(len(L([1])), list(D(a=1)), tuple(L([1, 2])), dict(D(a=1)), set(T((1, 1))))
print(sum(T((1, 2))), sorted(D(b=1, a=2)), any(L([0, 1])), all(T()), ' '.join(T(('a', 'b'))))
print(list(map(str, L([1, 2]))), list(enumerate(T('ab'))), min(D(x=1, a=2)), str(L()))
# %% star_unpacking
class L(list):
    pass
def f(*args):
    return args
print(f(*L([1, 2])), [*L('ab'), *L('c')], (*L([0]),))
# %% isinstance_and_issubclass
class D(dict):
    pass
class L(list):
    pass
print(isinstance(D(), (list, dict)), isinstance(L(), dict), issubclass(D, dict), issubclass(L, list), issubclass(L, dict))
# %% user_hash_key_found_by_int
class Num:
    def __init__(self, v):
        self.v = v
    def __hash__(self):
        return hash(self.v)
    def __eq__(self, other):
        return (other.v if isinstance(other, Num) else other) == self.v
    def __repr__(self):
        return f'Num({self.v})'
m = {Num(2): 'x'}
print(m[2], 2 in m, m.get(2), m.get(3), 3 in m)
m[2] = 'y'
print(m)
print(1 in {Num(1)}, {2: 'a'}[Num(2)])
# %% user_hash_key_found_by_str
class Name:
    def __init__(self, s):
        self.s = s
    def __hash__(self):
        return hash(self.s)
    def __eq__(self, other):
        return self.s == (other.s if isinstance(other, Name) else other)
m = {Name('k'): 1}
print(m['k'], 'k' in m, m.get('q'))
# %% bool_not_subclassable
class B(bool):
    pass
# %% layout_conflict
class X(dict, list):
    pass
# %% str_subclass_as_argument
class S(str):
    pass
print('abc'.startswith(S('a')), '-'.join([S('a'), S('b')]), 'abc'.replace(S('a'), 'z'))
print('a,b'.split(S(',')), S('a') in 'abc', 'abc' + S('d'), int(S('12')) + float(S('1.5')))
print(S('%s!') % 3, sorted([S('b'), 'a']), S('ab') < 'b', {'k': 1}[S('k')], {S('k'): 1}['k'])
print(*['p', 'q'], sep=S('-'))
# %% set_subclass_operators
class St(set):
    pass
z = {1}
z.update(St({2}), [3])
print(z, {1} | St({2}), St({2}) | {1}, {1} == St({1}), St({1}) & {1, 2}, St({1, 2}) - {1}, St({1}) ^ {2})
# %% set_update_in_place
s = {1, 2, 3}
s.update({4})
s.intersection_update({1, 2, 4, 5})
s.difference_update([1])
s.symmetric_difference_update({2, 9})
print(sorted(s))
# %% reflected_sequence_ops
class L(list):
    pass
class T(tuple):
    pass
print([1] + L([2]), (1,) + T((2,)), T((2,)) + (1,), 2 * L([0]), type([1] + L([2])).__name__)
# %% dict_subclass_union
class D(dict):
    pass
print(D(a=1) | {'b': 2}, {'b': 2} | D(a=1), type(D(a=1) | {}).__name__)
# %% list_subclass_iter_override
class Rev(list):
    def __iter__(self):
        return iter(list.__getitem__(self, slice(None, None, -1)))
r = Rev([1, 2, 3])
print(list(r), [x for x in r], sorted(r), r[0], len(r))
# %% tuple_subclass_percent_args
class T(tuple):
    pass
print('%s-%s' % T((1, 2)))
# %% int_subclass_index
class I(int):
    pass
print([10, 20, 30][I(1)], 'abc'[I(2)], list(range(I(3))), '%d|%5.1f' % (I(4), I(2)))
# %% new_not_a_subtype
class L(list):
    pass
tuple.__new__(L)
# %% namedtuple_in_containers
from collections import namedtuple
P = namedtuple('P', 'x y')
d = {P(1, 2): [P(3, 4)]}
print(d, list(d)[0].x, {P(0, 0)}, [P(5, 6)], (P(7, 8),))
# %% defaultdict_nested_counting
from collections import defaultdict, Counter
graph = defaultdict(list)
for a, b in [(1, 2), (1, 3), (2, 3)]:
    graph[a].append(b)
    graph[b]
deg = Counter(b for a, bs in graph.items() for b in bs)
print(dict(graph), deg, deg.most_common(1), isinstance(graph, dict), sum(deg.values()))
# %% super_getitem_in_tuple
class T(tuple):
    def __getitem__(self, i):
        return super().__getitem__(i) * 10
t = T((1, 2))
print(t[0], t[1], list(t), len(t))
# %% dict_fromkeys_classmethod
class D(dict):
    pass
d = D.fromkeys('ab', 0)
print(d, type(d).__name__, dict.fromkeys([1, 2]), dict.fromkeys('xy', []))
# %% dict_fromkeys_arity
dict.fromkeys()
# %% counter_fromkeys_refused
from collections import Counter
Counter.fromkeys('ab')
# %% plain_value_dunders
print([1, 2].__len__(), (1, 2).__hash__() == hash((1, 2)), {'a': 1}.__getitem__('a'), [].__hash__)
print((3).__add__(4), 'ab'.__contains__('a'), {}.fromkeys('xy', 1), hasattr([], '__iter__'), list({1: 2}.__iter__()))

# %% set_subclass_repr
class S(set):
    pass
print(S([1]), S(), repr(S("a")), [S([2])])

# %% frozenset_subclass
class F(frozenset):
    def total(self):
        return sum(self)
f = F([1, 2, 2])
g = F([3])
print(f, F(), type(f).__name__, len(f), 2 in f, f.total())
print(f | g, type(f | g).__name__, f & {1}, f == frozenset([1, 2]), f < frozenset([1, 2, 5]))
print(hash(f) == hash(frozenset([1, 2])), {f: 1}[frozenset([1, 2])], F([F([1])]))
print(isinstance(f, frozenset), issubclass(F, frozenset), sorted(f), f.isdisjoint(g), f.union([7]))

# %% frozenset_subclass_new
class Pair(frozenset):
    def __new__(cls, a, b):
        return super().__new__(cls, [a, b])
p = Pair(1, 2)
print(p, sorted(p), type(p).__name__)

# %% err_frozenset_subclass_immutable
class F(frozenset):
    pass
F([1]).add(2)
