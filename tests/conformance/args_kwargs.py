# %% star_args
def f(*args):
    return args
print(f(), f(1), f(1, 'a', None))
# %% star_kwargs
def f(**kwargs):
    return kwargs
print(f(), f(a=1, b=2))
# %% mixed_signature
def f(a, b=2, *args, c=3, **kwargs):
    print(a, b, args, c, kwargs)
f(1)
f(1, 5, 6, 7, c=8, d=9)
f(a=0, z=1)
# %% call_site_star
def f(a, b, c):
    return a + b + c
xs = [1, 2, 3]
print(f(*xs), f(1, *[2, 3]), f(*(1, 2), 3))
# %% call_site_double_star
def f(a, b, c=0):
    return (a, b, c)
opts = {'b': 2, 'c': 3}
print(f(1, **opts), f(**{'a': 1, 'b': 2}))
# %% forwarding
def inner(*args, **kwargs):
    return (args, kwargs)
def outer(*args, **kwargs):
    return inner(*args, **kwargs)
print(outer(1, 2, k='v'))
# %% args_is_tuple
def f(*args):
    return type(args).__name__, len(args)
print(f(1, 2, 3))
# %% kwargs_order_preserved
def f(**kw):
    return list(kw.items())
print(f(z=1, a=2, m=3))
# %% print_star_list
xs = [1, 2, 3]
print(*xs)
print(*xs, sep=", ")
print(*"abc", sep="-")
# %% sum_of_args
def total(*nums, start=0):
    s = start
    for n in nums:
        s += n
    return s
print(total(1, 2, 3), total(start=10), total(1, start=0.5))
