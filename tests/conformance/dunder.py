# %% repr_and_str
class V:
    def __init__(self, x, y):
        self.x, self.y = x, y
    def __repr__(self):
        return f"V({self.x}, {self.y})"
v = V(1, 2)
print(v, repr(v), str(v), [v], (v,), {'k': v})
# %% str_overrides_print
class T:
    def __str__(self):
        return "T as str"
    def __repr__(self):
        return "T()"
t = T()
print(t, str(t), repr(t), [t], f"{t}", "%s %r" % (t, t))
# %% eq
class P:
    def __init__(self, v):
        self.v = v
    def __eq__(self, other):
        return self.v == other.v
print(P(1) == P(1), P(1) == P(2), P(1) != P(2))
print(P(1) in [P(0), P(1)])
# %% len
class Dataset:
    def __init__(self, n):
        self.n = n
    def __len__(self):
        return self.n
d = Dataset(5)
print(len(d), bool(d), bool(Dataset(0)))
# %% getitem
class Squares:
    def __getitem__(self, i):
        return i * i
s = Squares()
print(s[3], s[10])
# %% len_and_getitem_dataset
class DS:
    def __init__(self):
        self.data = [10, 20, 30]
    def __len__(self):
        return len(self.data)
    def __getitem__(self, i):
        return self.data[i], i
ds = DS()
print(len(ds), ds[1], ds[-1])
# %% call
class Adder:
    def __init__(self, k):
        self.k = k
    def __call__(self, x, y=0):
        return x + y + self.k
a = Adder(100)
print(a(1), a(1, y=2))
# %% iter_protocol
class Range3:
    def __iter__(self):
        return iter([1, 2, 3])
print(list(Range3()), sum(Range3()))
for x in Range3():
    print(x)
# %% repr_used_for_nested
class N:
    def __init__(self, v):
        self.v = v
    def __repr__(self):
        return "N<" + repr(self.v) + ">"
print(N("s"), N([N(1)]))
# %% add_dunder
class Vec:
    def __init__(self, x):
        self.x = x
    def __add__(self, o):
        return Vec(self.x + o.x)
    def __repr__(self):
        return f"Vec({self.x})"
print(Vec(1) + Vec(2))
# %% str_falls_back_to_repr
class R:
    def __repr__(self):
        return "only-repr"
print(R(), str(R()))
# %% eq_with_non_matching_type
class P:
    def __init__(self, v):
        self.v = v
    def __eq__(self, other):
        if not isinstance(other, P):
            return False
        return self.v == other.v
print(P(1) == 1, P(1) == P(1))
