# %% class_syntax_basics
from typing import NamedTuple
class P(NamedTuple):
    x: int
    y: float = 0.0
p = P(1, 2.5)
print(p, repr(p), str(p))
print(p.x, p.y, p[0], p[-1], p[:1], len(p))
a, b = p
print(a, b, list(p), tuple(p))
print(P(3), P(y=4.0, x=1))
print(P._fields, P._field_defaults)
print(p._asdict())
print(isinstance(p, tuple), p == (1, 2.5), p == P(1, 2.5), hash(p) == hash((1, 2.5)))
# %% class_syntax_introspection
from typing import NamedTuple
class P(NamedTuple):
    x: int
    y: float = 0.0
print(P, P.__name__, P.__qualname__, P.__module__)
print(P.__annotations__)
print(P.__bases__, P.__orig_bases__[0] is NamedTuple, '__orig_bases__' in P.__dict__)
print(type(P(1)).__name__, issubclass(P, tuple))
# %% class_syntax_missing_args
from typing import NamedTuple
class Pt(NamedTuple):
    x: int
    y: int
    z: int = 0
for f in [lambda: Pt(), lambda: Pt(1), lambda: Pt(1, 2, 3, 4), lambda: Pt(1, 2, w=3), lambda: Pt(1, 2, x=3)]:
    try:
        f()
    except TypeError as e:
        print(e)
# %% class_syntax_methods_and_docstring
from typing import NamedTuple
class V(NamedTuple):
    """A 2-D vector."""
    x: float
    y: float
    def norm2(self):
        return self.x * self.x + self.y * self.y
    def __repr__(self):
        return f'<{self.x}, {self.y}>'
    @property
    def swapped(self):
        return V(self.y, self.x)
    scale = 2
v = V(3.0, 4.0)
print(v.norm2(), v, v.swapped, V.scale, v.scale)
print(V.__doc__)
print(v._replace(y=0.5), V._make([1, 2]))
# %% class_syntax_immutable
from typing import NamedTuple
class P(NamedTuple):
    x: int
p = P(1)
for f in [lambda: setattr(p, 'x', 2), lambda: setattr(p, 'z', 2)]:
    try:
        f()
    except AttributeError as e:
        print(e)
try:
    p[0] = 5
except TypeError as e:
    print(e)
# %% class_syntax_field_order_error
from typing import NamedTuple
try:
    class Bad(NamedTuple):
        a: int = 1
        b: int
except TypeError as e:
    print(e)
try:
    class Bad2(NamedTuple):
        a: int = 1
        c: str = 'c'
        b: int
except TypeError as e:
    print(e)
# %% class_syntax_prohibited_names
from typing import NamedTuple
try:
    class Q(NamedTuple):
        x: int
        def _asdict(self):
            return 1
except AttributeError as e:
    print(e)
try:
    class Q(NamedTuple):
        x: int
        def __new__(cls):
            return 1
except AttributeError as e:
    print(e)
try:
    class Q(NamedTuple):
        _fields = ()
except AttributeError as e:
    print(e)
# %% class_syntax_no_fields_and_subclass
from typing import NamedTuple
class Empty(NamedTuple):
    pass
print(Empty(), Empty._fields, len(Empty()))
try:
    Empty(1)
except TypeError as e:
    print(e)
class P(NamedTuple):
    x: int
    y: int = 5
class Q(P):
    def total(self):
        return self.x + self.y
q = Q(1)
print(q, q.total(), isinstance(q, P), Q._fields)
# %% class_syntax_sort_and_dict_key
from typing import NamedTuple
class Card(NamedTuple):
    rank: int
    suit: str
cards = [Card(10, 'h'), Card(2, 's'), Card(10, 'c')]
print(sorted(cards))
print(max(cards), min(cards, key=lambda c: c.suit))
d = {Card(1, 'x'): 'one'}
print(d[Card(1, 'x')], Card(1, 'x') in d, d[(1, 'x')])
# %% functional_syntax
from typing import NamedTuple
P = NamedTuple('P', [('x', int), ('y', str)])
print(P(1, 'a'), P._fields, P.__annotations__)
E = NamedTuple('E', [])
print(E(), E._fields)
# %% bad_base_mix
from typing import NamedTuple
class Other:
    pass
try:
    class B(NamedTuple, Other):
        x: int
except TypeError as e:
    print(e)
