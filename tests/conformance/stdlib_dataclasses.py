# %% basic
from dataclasses import dataclass
@dataclass
class Point:
    x: int
    y: int = 0
print(Point(1), Point(1, 2), Point(x=3, y=4))
# %% eq
from dataclasses import dataclass
@dataclass
class P:
    x: int
    y: int
print(P(1, 2) == P(1, 2), P(1, 2) == P(2, 1), P(1, 2) != P(1, 2))
# %% default_factory
from dataclasses import dataclass, field
@dataclass
class Bag:
    name: str
    items: list = field(default_factory=list)
a, b = Bag('a'), Bag('b')
a.items.append(1)
print(a, b)
# %% mutable_default_error
from dataclasses import dataclass
@dataclass
class Bad:
    xs: list = []
# %% missing_argument
from dataclasses import dataclass
@dataclass
class P:
    x: int
    y: int
P(1)
# %% missing_two
from dataclasses import dataclass
@dataclass
class P:
    x: int
    y: int
P()
# %% too_many
from dataclasses import dataclass
@dataclass
class P:
    x: int
P(1, 2)
# %% unexpected_keyword
from dataclasses import dataclass
@dataclass
class P:
    x: int
P(1, z=2)
# %% non_default_after_default
from dataclasses import dataclass
@dataclass
class P:
    x: int = 0
    y: int
# %% order
from dataclasses import dataclass
@dataclass(order=True)
class V:
    a: int
    b: int = 0
print(V(1, 2) < V(2, 0), V(1, 2) <= V(1, 2), sorted([V(3), V(1, 5), V(1, 2)]))
# %% frozen
from dataclasses import dataclass, FrozenInstanceError
@dataclass(frozen=True)
class C:
    lr: float
c = C(0.1)
try:
    c.lr = 0.2
except FrozenInstanceError as e:
    print('frozen:', e)
print(c, hash(c) == hash(C(0.1)))
# %% frozen_is_attribute_error
from dataclasses import dataclass
@dataclass(frozen=True)
class C:
    a: int
try:
    C(1).a = 2
except AttributeError as e:
    print(type(e).__name__, e)
# %% asdict_astuple
from dataclasses import dataclass, asdict, astuple
@dataclass
class Inner:
    v: int
@dataclass
class Outer:
    name: str
    inner: Inner
    tags: list
o = Outer('o', Inner(3), [Inner(1)])
print(asdict(o))
print(astuple(o))
# %% fields_names
from dataclasses import dataclass, fields
@dataclass
class Cfg:
    lr: float = 0.01
    epochs: int = 10
print([f.name for f in fields(Cfg)], [f.default for f in fields(Cfg())])
# %% replace
from dataclasses import dataclass, replace
@dataclass
class Cfg:
    lr: float = 0.01
    epochs: int = 10
c = Cfg()
print(replace(c, epochs=3), c)
# %% post_init
from dataclasses import dataclass, field
@dataclass
class Rect:
    w: float
    h: float
    area: float = field(init=False, default=0.0)
    def __post_init__(self):
        self.area = self.w * self.h
print(Rect(2, 3))
# %% repr_false_field
from dataclasses import dataclass, field
@dataclass
class User:
    name: str
    password: str = field(repr=False, default='')
print(User('ann', 'secret'))
# %% methods_kept
from dataclasses import dataclass
@dataclass
class Acc:
    total: float = 0.0
    n: int = 0
    def add(self, v):
        self.total += v
        self.n += 1
    def mean(self):
        return self.total / self.n
a = Acc()
for v in [1.0, 2.0, 6.0]:
    a.add(v)
print(a, a.mean())
# %% inheritance
from dataclasses import dataclass
@dataclass
class Base:
    x: int
@dataclass
class Child(Base):
    y: int = 5
print(Child(1), Child(1, 2))
# %% is_dataclass
from dataclasses import dataclass, is_dataclass
@dataclass
class A:
    x: int
class B:
    pass
print(is_dataclass(A), is_dataclass(A(1)), is_dataclass(B))
# %% custom_repr_kept
from dataclasses import dataclass
@dataclass
class A:
    x: int
    def __repr__(self):
        return f'A<{self.x}>'
print(A(3))
# %% annotations_dict
class T:
    a: int
    b: str = 'x'
print(T.__annotations__, T.b)
# %% config_pattern
from dataclasses import dataclass
@dataclass
class TrainConfig:
    lr: float = 1e-3
    batch_size: int = 32
    epochs: int = 5
    device: str = 'cpu'
cfg = TrainConfig(lr=0.1)
print(cfg)
print(f'{cfg.lr=} {cfg.batch_size=}')
