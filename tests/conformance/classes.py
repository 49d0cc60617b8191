# %% basic_class
class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y
    def norm2(self):
        return self.x ** 2 + self.y ** 2
p = Point(3, 4)
print(p.x, p.y, p.norm2())
# %% attribute_mutation
class Box:
    def __init__(self):
        self.items = []
b = Box()
b.items.append(1)
b.label = "new attr"
print(b.items, b.label)
b.label = "changed"
print(b.label)
# %% class_attributes
class Dog:
    species = "canis"
    count = 0
    def __init__(self, name):
        self.name = name
        Dog.count += 1
a = Dog("a")
b = Dog("b")
print(Dog.species, a.species, Dog.count, b.count)
a.species = "own"
print(a.species, b.species, Dog.species)
# %% methods_calling_methods
class Counter:
    def __init__(self):
        self.n = 0
    def inc(self):
        self.n += 1
        return self
    def twice(self):
        self.inc()
        self.inc()
        return self.n
c = Counter()
print(c.twice(), c.inc().inc().n)
# %% type_of_instance_and_class
class Foo:
    pass
f = Foo()
print(type(f), Foo, type(f) is Foo, type(f).__name__, Foo.__name__)
print(type(Foo))
# %% isinstance_user_class
class A:
    pass
class B:
    pass
a = A()
print(isinstance(a, A), isinstance(a, B), isinstance(a, (B, A)), isinstance(a, object))
# %% bound_method_object
class K:
    def __init__(self, v):
        self.v = v
    def get(self):
        return self.v
m = K(9).get
print(m())
print(K.get(K(4)))
# %% default_args_in_methods
class Layer:
    def __init__(self, n_in, n_out, bias=True):
        self.shape = (n_in, n_out)
        self.bias = bias
l = Layer(3, 10)
l2 = Layer(3, 1, bias=False)
print(l.shape, l.bias, l2.bias)
# %% class_with_class_level_list_shared
class Bag:
    items = []
    def add(self, x):
        self.items.append(x)
a = Bag()
b = Bag()
a.add(1)
b.add(2)
print(Bag.items, a.items is b.items)
# %% instance_dict_attr_checks
class C:
    def __init__(self):
        self.a = 1
c = C()
print(hasattr(c, 'a'), hasattr(c, 'b'), getattr(c, 'a'), getattr(c, 'b', 'dflt'))
setattr(c, 'b', 2)
print(c.b)
# %% call_dunder
class Linear:
    def __init__(self, w, b):
        self.w = w
        self.b = b
    def __call__(self, x):
        return self.w * x + self.b
f = Linear(2, 1)
print(f(3), f(0))
# %% method_defined_later_used
class A:
    def a(self):
        return self.b() + 1
    def b(self):
        return 10
print(A().a())
# %% class_method_referencing_class_name
class Reg:
    registry = {}
    def __init__(self, name):
        Reg.registry[name] = self
        self.name = name
Reg("x")
Reg("y")
print(list(Reg.registry))
# %% docstring_class
class D:
    """A documented class."""
    pass
print(D.__doc__)
# %% objects_in_lists
class Item:
    def __init__(self, v):
        self.v = v
items = [Item(3), Item(1), Item(2)]
print([i.v for i in sorted(items, key=lambda i: i.v)])
print(max(items, key=lambda i: i.v).v)
