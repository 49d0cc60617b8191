# %% slots_store_outside
class P:
    __slots__ = ('x', 'y')
    def __init__(self):
        self.x = 1
p = P()
p.y = 2
print(p.x, p.y)
try:
    p.z = 3
except AttributeError as e:
    print(e)
try:
    setattr(p, 'w', 1)
except AttributeError as e:
    print(e)
print(hasattr(p, 'z'), getattr(p, 'z', 'none'))
# %% slots_unset_and_delete
class P:
    __slots__ = ['x', 'y']
p = P()
try:
    print(p.y)
except AttributeError as e:
    print(e)
p.x = 5
del p.x
try:
    del p.x
except AttributeError as e:
    print(e)
try:
    del p.q
except AttributeError as e:
    print(e)
# %% slots_no_dict
class P:
    __slots__ = 'x'
p = P()
p.x = 1
try:
    print(p.__dict__)
except AttributeError as e:
    print(e)
print(P.__slots__)
class D:
    __slots__ = ('x', '__dict__')
d = D()
d.x = 1
d.other = 2
print(d.__dict__, d.x)
# %% slots_conflict_with_class_variable
try:
    class Q:
        __slots__ = ('x',)
        x = 5
except ValueError as e:
    print(e)
try:
    class R:
        __slots__ = ('a', 'b')
        def b(self):
            return 1
except ValueError as e:
    print(e)
# %% slots_bad_names
for slots in [('1a',), ('a-b',), ('__dict__', '__dict__'), 3, (1,)]:
    try:
        type('T', (), {'__slots__': slots})
    except TypeError as e:
        print(e)
# %% slots_inheritance
class Base:
    __slots__ = ('a',)
class Child(Base):
    __slots__ = ('b',)
class Free(Base):
    pass
c = Child()
c.a, c.b = 1, 2
print(c.a, c.b)
try:
    c.c = 3
except AttributeError as e:
    print(e)
f = Free()
f.a = 1
f.anything = 2
print(f.anything, f.__dict__)
# %% slots_with_setattr_and_property
class P:
    __slots__ = ('_x',)
    @property
    def x(self):
        return self._x
    @x.setter
    def x(self, v):
        self._x = v * 2
p = P()
p.x = 4
print(p.x, p._x)
try:
    p.y = 1
except AttributeError as e:
    print(e)
try:
    object.__setattr__(p, 'y', 1)
except AttributeError as e:
    print(e)
