# %% new_then_init
class A:
    def __new__(cls, *args, **kwargs):
        print('new', cls.__name__, args, kwargs)
        return super().__new__(cls)

    def __init__(self, x, y=0):
        print('init', x, y)
        self.x = x

class B(A):
    pass

b = B(3, y=4)
print(b.x, type(b).__name__, isinstance(b, A))

# %% singleton
class Config:
    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
            cls._instance.values = {}
        return cls._instance

a = Config()
b = Config()
a.values['lr'] = 0.1
print(a is b, b.values)

# %% new_returning_another_type_skips_init
class Odd:
    def __new__(cls, n):
        return n * 2

    def __init__(self, n):
        print('never')

print(Odd(21))

# %% object_new_directly
class P:
    def __init__(self):
        self.made = True

p = object.__new__(P)
print(type(p).__name__, hasattr(p, 'made'))
try:
    object.__new__(5)
except TypeError as e:
    print(e)
try:
    object.__new__(dict)
except TypeError as e:
    print(e)

# %% cached_instances
class Point:
    _cache = {}

    def __new__(cls, x, y):
        key = (x, y)
        if key not in cls._cache:
            obj = super().__new__(cls)
            obj.x, obj.y = x, y
            cls._cache[key] = obj
        return cls._cache[key]

print(Point(1, 2) is Point(1, 2), Point(1, 2) is Point(2, 1), len(Point._cache))
