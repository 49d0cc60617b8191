# %% namedtuple_dict_key
from collections import namedtuple
Point = namedtuple("Point", ["x", "y"])
d = {}
d[Point(1, 2)] = "a"
d[Point(1, 2)] = "b"
d[Point(3, 4)] = "c"
print(len(d), d[Point(1, 2)], d.get(Point(3, 4)), d.get(Point(9, 9), "missing"))
print(Point(1, 2) in d, Point(2, 1) in d)
# %% namedtuple_set
from collections import namedtuple
P = namedtuple("P", "a b")
s = {P(1, 2), P(1, 2), P(2, 1)}
print(len(s))
s.add(P(2, 1))
s.add(P(5, 5))
print(len(s), P(5, 5) in s)
s.discard(P(5, 5))
s.remove(P(1, 2))
print(sorted(s))
# %% namedtuple_set_from_list
from collections import namedtuple
Edge = namedtuple("Edge", "u v")
edges = [Edge(1, 2), Edge(2, 3), Edge(1, 2), Edge(2, 3), Edge(3, 4)]
print(len(set(edges)))
print(sorted(set(edges)))
print(len({e for e in edges}), len({e: 1 for e in edges}))
# %% frozen_dataclass_key
from dataclasses import dataclass
@dataclass(frozen=True)
class Coord:
    x: int
    y: int
seen = set()
for c in [Coord(0, 0), Coord(0, 1), Coord(0, 0)]:
    if c in seen:
        print("again", c)
    seen.add(c)
print(len(seen))
grid = {Coord(0, 0): "origin"}
print(grid[Coord(0, 0)])
print(hash(Coord(1, 2)) == hash(Coord(1, 2)))
# %% plain_dataclass_unhashable
from dataclasses import dataclass
@dataclass
class Item:
    name: str
print(Item("a") == Item("a"))
print(Item.__hash__)
{Item("a"): 1}
# %% eq_without_hash_unhashable
class C:
    def __init__(self, v):
        self.v = v
    def __eq__(self, other):
        return self.v == other.v
print(C(1) == C(1))
print(C.__hash__)
s = {C(1)}
# %% eq_without_hash_hash_builtin
class C:
    def __eq__(self, other):
        return True
hash(C())
# %% eq_without_hash_dict_index
class C:
    def __eq__(self, other):
        return True
d = {}
d[C()] = 1
# %% custom_hash_eq_key
class Word:
    def __init__(self, s):
        self.s = s
    def __eq__(self, other):
        return isinstance(other, Word) and self.s.lower() == other.s.lower()
    def __hash__(self):
        return hash(self.s.lower())
    def __repr__(self):
        return f"Word({self.s!r})"
counts = {}
for w in ["Apple", "apple", "APPLE", "pear"]:
    counts[Word(w)] = counts.get(Word(w), 0) + 1
print(counts)
print(Word("PEAR") in counts, {Word("a"), Word("A")})
del counts[Word("aPPle")]
print(counts)
# %% hash_only_identity_eq
class H:
    def __hash__(self):
        return 1
a, b = H(), H()
s = {a, b, a}
print(len(s), a in s, H() in s)
# %% hash_collisions_distinct
class K:
    def __init__(self, v):
        self.v = v
    def __hash__(self):
        return 0
    def __eq__(self, other):
        return self.v == other.v
d = {K(i): i for i in range(5)}
print(len(d), d[K(3)], K(7) in d)
d[K(2)] = 20
print(len(d), [d[K(i)] for i in range(5)])
# %% user_key_equal_to_int
class One:
    def __hash__(self):
        return hash(1)
    def __eq__(self, other):
        return other == 1
d = {1: "int one"}
print(d[One()])
print(One() in {1, 2})
# %% tuple_of_user_keys
from collections import namedtuple
P = namedtuple("P", "x y")
d = {(P(0, 0), "a"): 1}
print(d[(P(0, 0), "a")], (P(0, 0), "b") in d)
# %% subclass_inherits_hash
from collections import namedtuple
class V(namedtuple("V", "x y")):
    def norm(self):
        return abs(self.x) + abs(self.y)
print(len({V(1, 2), V(1, 2)}), V(1, 2).norm())
# %% subclass_eq_resets_hash
class A:
    def __hash__(self):
        return 5
class B(A):
    def __eq__(self, other):
        return True
print(hash(A()), B.__hash__)
hash(B())
# %% hash_returns_non_int
class Bad:
    def __hash__(self):
        return "no"
{Bad()}
# %% hash_raises
class Boom:
    def __hash__(self):
        raise ValueError("no hash for you")
try:
    {Boom(): 1}
except ValueError as e:
    print("ValueError:", e)
print("ok")
# %% set_operations_user_keys
from collections import namedtuple
P = namedtuple("P", "x y")
a = {P(1, 1), P(2, 2)}
b = {P(2, 2), P(3, 3)}
print(sorted(a | b))
print(sorted(a & b), sorted(a - b))
print(sorted(a.union([P(1, 1)])))
# %% dict_methods_user_keys
from collections import namedtuple
P = namedtuple("P", "x y")
d = {P(1, 2): "a"}
print(d.setdefault(P(1, 2), "z"), d.pop(P(1, 2)), d)
d2 = dict([(P(0, 0), 1), (P(0, 0), 2)])
print(d2)
# %% counter_of_namedtuples
from collections import Counter, namedtuple
P = namedtuple("P", "x y")
c = Counter([P(1, 2), P(1, 2), P(0, 0)])
print(c[P(1, 2)], c[P(0, 0)], len(c))
# %% hash_none_explicit
class N:
    __hash__ = None
print(N.__hash__)
hash(N())
# %% unsafe_hash_dataclass
from dataclasses import dataclass
@dataclass(unsafe_hash=True)
class U:
    a: int
print(len({U(1), U(1), U(2)}))
# %% set_compare_user_keys
from collections import namedtuple
P = namedtuple("P", "x y")
print({P(1, 1), P(2, 2)} == {P(2, 2), P(1, 1)}, {P(1, 1)} <= {P(1, 1), P(0, 0)})
print({P(1, 1)} ^ {P(1, 1), P(0, 0)})
# %% dict_merge_user_keys
from collections import namedtuple
P = namedtuple("P", "x y")
a = {P(1, 1): "a", P(2, 2): "b"}
b = {P(1, 1): "A"}
print(a | b)
print({**a, **b})
a.update(b)
print(a, a == {P(2, 2): "b", P(1, 1): "A"}, a == {P(1, 1): "x", P(2, 2): "b"})
# %% user_keys_order_and_identity
class K:
    def __init__(self, name, v):
        self.name, self.v = name, v
    def __eq__(self, other):
        return isinstance(other, K) and self.v == other.v
    def __hash__(self):
        return hash(self.v)
    def __repr__(self):
        return self.name
d = {K("first", 1): 1}
d[K("second", 1)] = 2
print(d)
s = {K("a", 1)}
s.add(K("b", 1))
print(s, K("c", 1) in s)
# %% hash_of_namedtuple_matches_tuple
from collections import namedtuple
P = namedtuple("P", "x y")
print(hash(P(1, 2)) == hash((1, 2)), P(1, 2) == (1, 2))
d = {P(1, 2): "nt"}
print(d[P(1, 2)], P(2, 1) in d)
