# %% simple_decorator
def shout(fn):
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs).upper()
    return wrapper
@shout
def hello(name):
    return "hello " + name
print(hello("ann"))
# %% decorator_with_state
def counted(fn):
    def wrapper(*args):
        wrapper.calls += 1
        return fn(*args)
    wrapper.calls = 0
    return wrapper
@counted
def sq(x):
    return x * x
sq(2)
sq(3)
print(sq(4), sq.calls)
# %% decorator_factory
def repeat(n):
    def deco(fn):
        def wrapper(x):
            return [fn(x) for _ in range(n)]
        return wrapper
    return deco
@repeat(3)
def double(x):
    return 2 * x
print(double(5))
# %% stacked_decorators
def add_one(fn):
    return lambda x: fn(x) + 1
def times_two(fn):
    return lambda x: fn(x) * 2
@add_one
@times_two
def ident(x):
    return x
print(ident(5))
