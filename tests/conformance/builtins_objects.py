# %% isinstance_basic
print(isinstance(1, int), isinstance(1.0, int), isinstance(1.0, float), isinstance("s", str))
print(isinstance([], list), isinstance((), tuple), isinstance({}, dict), isinstance(set(), set))
print(isinstance(True, int), isinstance(None, object), isinstance(1, (float, str)), isinstance(1, (float, int)))
# %% type_printing
print(type(1), type("x"), type(print), type(len))
class Foo:
    pass
print(type(Foo()), Foo)
# %% type_comparisons
print(type(1) == int, type(1.0) is float, type([]) is list, type(True) is int)
# %% type_names
print(type(3).__name__, type([]).__name__, type(None).__name__, type(lambda: 0).__name__)
# %% str_repr
print(str("x"), repr("x"), repr(1.0), str(1.0), repr([1, "2"]), str([1, "2"]))
print(repr(None), repr(True), repr(()), repr((1,)), repr({}), repr(set()))
# %% hasattr_getattr_setattr
class C:
    cls_attr = 5
c = C()
setattr(c, "dyn", 10)
print(hasattr(c, "dyn"), hasattr(c, "cls_attr"), hasattr(c, "nope"), getattr(c, "dyn"))
print(getattr(c, "nope", "default"), getattr(C, "cls_attr"))
print(hasattr([], "append"), getattr("abc", "upper")())
# %% getattr_dynamic_method
class Ops:
    def add(self, a, b):
        return a + b
    def sub(self, a, b):
        return a - b
o = Ops()
for name in ["add", "sub"]:
    print(name, getattr(o, name)(5, 3))
# %% getattr_missing_raises
class C:
    pass
getattr(C(), "missing")
# %% dir_contains
print("append" in dir([]), "upper" in dir(""), "nope" in dir([]))
class C:
    def method(self):
        pass
print("method" in dir(C()))
# %% type_of_builtin_type
print(type(int), type(type))
# %% str_of_classes
print(str(int), repr(str), list, dict)
# %% print_builtin_function
print(len, print)

# %% vars_of_instances_and_modules
class C:
    def __init__(self):
        self.a = 1
        self.b = [2]
c = C()
print(vars(c), vars(c) == c.__dict__)
import math
print('pi' in vars(math))

# %% err_vars_no_dict
vars(1)

# %% err_vars_two_args
vars(1, 2)

# %% locals_and_vars_without_argument
def f(a, b=2):
    c = a + b
    s = ""
    s += "x"
    def g():
        return c
    return sorted(k for k in locals()), vars()['s'], locals()['c']
print(f(1))
def k(n):
    if n:
        y = 5
    return locals()
print(k(0), k(1))
class C:
    a = 1
    names = sorted(k for k in locals() if not k.startswith('__'))
print(C.names)
z = 3
print('z' in locals(), 'f' in vars(), locals()['z'])
def outer():
    q = 1
    def inner():
        return locals()
    def inner2():
        return q, locals()
    return inner(), inner2()
print(outer())
# %% dunder_class_of_every_object
import math
def f(): pass
class C: pass
print(f.__class__, len.__class__, C.__class__, math.__class__, (1.5).__class__, None.__class__, C().__class__, [].append.__class__, iter([]).__class__, range(2).__class__)
print(f.__class__.__name__, C.__class__.__name__, (lambda: 0).__class__ is f.__class__)
