# %% reduce_product
from functools import reduce
print(reduce(lambda a, b: a * b, range(1, 6)))
# %% reduce_initial
from functools import reduce
print(reduce(lambda a, b: a + b, [], 0), reduce(lambda a, b: a + [b], 'ab', []))
# %% reduce_empty
from functools import reduce
reduce(lambda a, b: a + b, [])
# %% reduce_max
import functools
print(functools.reduce(max, [3, 9, 2]))
# %% partial_positional
from functools import partial
pw = partial(pow, 2)
print(pw(10), pw(3))
# %% partial_keyword
from functools import partial
base2 = partial(int, base=2)
print(base2('101'), base2('11', base=3))
# %% partial_attrs
from functools import partial
def f(a, b, c=0):
    return a + b + c
p = partial(f, 1, c=5)
print(p(2), p.args, p.keywords, p.func is f)
# %% partial_nested
from functools import partial
def f(a, b, c):
    return (a, b, c)
p = partial(partial(f, 1), 2)
print(p(3), p.args)
# %% partial_not_callable
from functools import partial
partial(3)
# %% lru_cache_fib
from functools import lru_cache
@lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
print(fib(30), fib.cache_info())
# %% lru_cache_bare
from functools import lru_cache
calls = []
@lru_cache
def sq(x):
    calls.append(x)
    return x * x
print(sq(3), sq(3), sq(4), calls)
print(sq.cache_info())
# %% lru_cache_maxsize
from functools import lru_cache
@lru_cache(maxsize=2)
def f(x):
    print('compute', x)
    return x
f(1); f(2); f(1); f(3); f(2)
print(f.cache_info())
# %% lru_cache_clear
from functools import lru_cache
@lru_cache(maxsize=32)
def f(x):
    return x + 1
f(1); f(1)
f.cache_clear()
print(f.cache_info())
# %% lru_cache_kwargs
from functools import lru_cache
@lru_cache(maxsize=8)
def f(a, b=1):
    return a * b
print(f(2, b=3), f(2, b=3), f.cache_info().hits)
# %% cache
from functools import cache
@cache
def fact(n):
    return 1 if n == 0 else n * fact(n - 1)
print(fact(10), fact.cache_info())
# %% wraps_keeps_name
import functools
def log(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        print('calling', fn.__name__)
        return fn(*args, **kwargs)
    return wrapper
@log
def add(a, b):
    """Add two numbers."""
    return a + b
print(add(1, 2), add.__name__, add.__doc__)
# %% cmp_to_key
from functools import cmp_to_key
def cmp(a, b):
    return (a > b) - (a < b)
print(sorted([3, 1, 2], key=cmp_to_key(cmp)), sorted(['bb', 'a', 'ccc'], key=cmp_to_key(lambda a, b: len(b) - len(a))))
# %% total_ordering_lt
from functools import total_ordering
@total_ordering
class V:
    def __init__(self, n):
        self.n = n
    def __eq__(self, o):
        return self.n == o.n
    def __lt__(self, o):
        return self.n < o.n
a, b = V(1), V(2)
print(a < b, a > b, a <= b, a >= b, a <= V(1), b >= V(3))
# %% total_ordering_ge
from functools import total_ordering
@total_ordering
class W:
    def __init__(self, n):
        self.n = n
    def __eq__(self, o):
        return self.n == o.n
    def __ge__(self, o):
        return self.n >= o.n
print(W(1) < W(2), W(2) > W(1), W(1) <= W(1), sorted([W(3), W(1)])[0].n)
# %% total_ordering_needs_one
from functools import total_ordering
@total_ordering
class N:
    pass
