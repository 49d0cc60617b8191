# %% property_decorator
class Circle:
    def __init__(self, r):
        self._r = r
    @property
    def radius(self):
        return self._r
    @property
    def area(self):
        return 3 * self._r ** 2
c = Circle(2)
print(c.radius, c.area)
c._r = 5
print(c.radius, c.area)
# %% property_setter_deleter
class Temp:
    def __init__(self):
        self._c = 0
    @property
    def celsius(self):
        """Degrees Celsius."""
        return self._c
    @celsius.setter
    def celsius(self, v):
        if v < -273:
            raise ValueError("too cold")
        self._c = v
    @celsius.deleter
    def celsius(self):
        print("deleting")
        self._c = None
t = Temp()
t.celsius = 25
print(t.celsius)
try:
    t.celsius = -300
except ValueError as e:
    print("ValueError:", e)
del t.celsius
print(t.celsius)
print(Temp.celsius.__doc__)
print(type(Temp.celsius).__name__)
print('celsius' in t.__dict__)
# %% property_read_only_error
class P:
    @property
    def name(self):
        return "p"
p = P()
print(p.name)
p.name = "q"
# %% property_no_deleter_error
class P:
    @property
    def name(self):
        return "p"
del P().name
# %% property_no_getter_error
class P:
    x = property(None, lambda self, v: None)
p = P()
p.x = 3
print("set ok")
p.x
# %% property_function_form
class Account:
    def __init__(self):
        self._bal = 10
    def get_bal(self):
        return self._bal
    def set_bal(self, v):
        self._bal = v
    def del_bal(self):
        del self._bal
    balance = property(get_bal, set_bal, del_bal, "The balance.")
a = Account()
print(a.balance)
a.balance = 42
print(a.balance, a._bal)
print(Account.balance.__doc__)
print(Account.balance.fget is Account.get_bal, Account.balance.fset is Account.set_bal)
del a.balance
print(hasattr(a, '_bal'))
# %% property_keywords
class K:
    def _g(self):
        return 7
    seven = property(fget=_g, doc="seven")
print(K().seven, K.seven.__doc__, K.seven.fset)
# %% property_doc_from_getter
class D:
    @property
    def v(self):
        """The v value."""
        return 1
print(D.v.__doc__)
# %% property_inherited_and_overridden
class Base:
    @property
    def kind(self):
        return "base"
    @property
    def size(self):
        return 1
class Child(Base):
    @property
    def kind(self):
        return "child of " + super().kind
c = Child()
print(c.kind, c.size)
# %% property_getattr_fallback
class G:
    @property
    def broken(self):
        raise AttributeError("inner")
    def __getattr__(self, name):
        return "fallback " + name
print(G().broken)
# %% property_with_setattr_class
class S:
    def __init__(self):
        self._x = 1
    @property
    def x(self):
        return self._x
    @x.setter
    def x(self, v):
        self._x = v * 10
    def __setattr__(self, name, value):
        print("setattr", name)
        object.__setattr__(self, name, value)
s = S()
s.x = 4
print(s.x, s._x)
# %% property_attribute_chain
class Node:
    def __init__(self, v, nxt=None):
        self.v = v
        self.nxt = nxt
    @property
    def last(self):
        n = self
        while n.nxt is not None:
            n = n.nxt
        return n
print(Node(1, Node(2, Node(3))).last.v)
# %% property_counts_calls
class Lazy:
    calls = 0
    @property
    def value(self):
        Lazy.calls += 1
        return Lazy.calls
z = Lazy()
print(z.value, z.value, z.value)
print([z.value for _ in range(3)])
# %% staticmethod_basic
class MathUtil:
    @staticmethod
    def add(a, b):
        return a + b
print(MathUtil.add(2, 3))
print(MathUtil().add(4, 5))
f = MathUtil.add
print(f(1, 1))
print(type(MathUtil.__dict__['add']).__name__)
# %% staticmethod_function_form
class T:
    def helper(x):
        return x * 2
    helper = staticmethod(helper)
print(T.helper(4), T().helper(5))
# %% staticmethod_inherited
class A:
    @staticmethod
    def who():
        return "A.who"
class B(A):
    pass
print(B.who(), B().who())
# %% classmethod_basic
class Pizza:
    def __init__(self, toppings):
        self.toppings = toppings
    @classmethod
    def margherita(cls):
        return cls(["mozzarella", "tomato"])
    def __repr__(self):
        return f"{type(self).__name__}({self.toppings})"
print(Pizza.margherita())
print(Pizza([]).margherita())
# %% classmethod_subclass_cls
class Shape:
    count = 0
    @classmethod
    def make(cls):
        cls.count += 1
        return cls.__name__
class Square(Shape):
    pass
print(Shape.make(), Square.make(), Square().make())
print(Shape.count, Square.count)
# %% classmethod_super
class Base:
    @classmethod
    def describe(cls):
        return "Base via " + cls.__name__
class Derived(Base):
    @classmethod
    def describe(cls):
        return "Derived+" + super().describe()
print(Derived.describe())
print(Derived().describe())
# %% classmethod_alternate_constructor
class Date:
    def __init__(self, y, m, d):
        self.y, self.m, self.d = y, m, d
    @classmethod
    def from_string(cls, s):
        y, m, d = (int(p) for p in s.split("-"))
        return cls(y, m, d)
class MyDate(Date):
    pass
d = MyDate.from_string("2024-03-15")
print(type(d).__name__, d.y, d.m, d.d)
# %% classmethod_function_form
class C:
    def make(cls, v):
        return (cls.__name__, v)
    make = classmethod(make)
print(C.make(1), C().make(2))
print(C.make.__self__ is C)
# %% classmethod_wrong_args_error
class C:
    @classmethod
    def f(cls, x):
        return x
C.f()
# %% staticmethod_wrong_args_error
class C:
    @staticmethod
    def f(x):
        return x
C().f(1, 2)
# %% descriptor_func_attr
class C:
    @staticmethod
    def s():
        return 1
    @classmethod
    def c(cls):
        return 2
print(C.__dict__['s'].__func__(), C.__dict__['c'].__func__(C))
# %% descriptor_odd_uses
class C:
    a = classmethod(1)
    b = staticmethod(2)
    c = property(3, 4, 5)
def t(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
t(lambda: C.a())
t(lambda: C().a())
t(lambda: C.b)
t(lambda: C().b)
t(lambda: C().c)
t(lambda: setattr(C(), 'c', 1))
t(lambda: delattr(C(), 'c'))
t(lambda: hasattr(C(), 'c'))
t(lambda: getattr(C(), 'zz', 'dflt'))
t(lambda: type(C.c).__name__)
t(lambda: super(C, C()).d)
t(lambda: C.__dict__['a'].__func__)
t(lambda: property.__name__)
# %% property_hasattr_getattr
class R:
    @property
    def ok(self):
        return "fine"
    @property
    def bad(self):
        raise AttributeError("nope")
r = R()
print(hasattr(r, "ok"), hasattr(r, "bad"), getattr(r, "bad", "default"), getattr(r, "ok"))
print(isinstance(R.ok, property), isinstance(R.ok, staticmethod), property, classmethod)
# %% property_recursion_error
class Loop:
    @property
    def d(self):
        return self.d
try:
    Loop().d
except RecursionError as e:
    print("RecursionError:", e)
