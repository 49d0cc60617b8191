# %% count_and_return
def count(n):
    i = 0
    while i < n:
        yield i
        i += 1
    return "done"
print(list(count(5)))
g = count(2)
print(type(g).__name__)
print(next(g), next(g))
try:
    next(g)
except StopIteration as e:
    print("stop", e.args)
print(next(g, "default"))
# %% lazy_body
def lazy():
    print("started")
    yield 1
    print("resumed")
l = lazy()
print("before")
print(next(l))
print(list(l))
# %% send
def echo():
    got = yield "ready"
    while True:
        got = yield got * 2
e = echo()
print(next(e))
print(e.send(3))
print(e.send(10))
e.close()
try:
    e.send(1)
except StopIteration:
    print("closed")
# %% send_to_new_generator
def count(n):
    yield from range(n)
count(3).send(5)
# %% yield_from_generator
def inner():
    x = yield 1
    yield x
    return 42
def outer():
    r = yield from inner()
    print("inner returned", r)
    yield from [7, 8]
o = outer()
print(next(o))
print(o.send("sent"))
print(list(o))
# %% yield_from_recursive
def walk(tree):
    if isinstance(tree, list):
        for t in tree:
            yield from walk(t)
    else:
        yield tree
print(list(walk([1, [2, [3, 4]], [[5]], 6])))
def deep(n):
    if n == 0:
        yield 0
        return
    yield from deep(n - 1)
    yield n
print(sum(deep(50)))
# %% genexpr_lazy
def noisy(n):
    for i in range(n):
        print("make", i)
        yield i
gen = (x * 10 for x in noisy(3))
print("created")
print(next(gen))
print(list(gen))
print(sum(x * x for x in range(10)))
print([y for y in (x + 1 for x in range(3) if x != 1)])
print(any(x > 2 for x in [1, 2, 3, 4]))
# %% infinite_with_zip
def fib():
    a, b = 0, 1
    while True:
        yield a
        a, b = b, a + b
print([v for _, v in zip(range(10), fib())])
# %% throw_and_finally
def catcher():
    try:
        yield 1
    except ValueError as err:
        yield "caught " + str(err)
    finally:
        print("finally")
c = catcher()
print(next(c))
print(c.throw(ValueError("boom")))
try:
    next(c)
except StopIteration:
    print("end")
# %% close_runs_finally
def g():
    try:
        yield 1
        yield 2
    finally:
        print("cleanup")
x = g()
print(next(x))
x.close()
print("after close")
x.close()
# %% close_ignored
def stubborn():
    while True:
        try:
            yield 1
        except GeneratorExit:
            print("no")
s = stubborn()
next(s)
s.close()
# %% stop_iteration_inside
def bad():
    yield 1
    raise StopIteration
try:
    list(bad())
except RuntimeError as err:
    print("RuntimeError:", err)
# %% already_executing
def reent():
    yield next(me)
me = reent()
next(me)
# %% exception_state_kept
def gen_in_except():
    try:
        raise KeyError("k")
    except KeyError:
        yield 1
        raise
g = gen_in_except()
print(next(g))
try:
    raise ValueError("outside")
except ValueError:
    pass
try:
    next(g)
except KeyError as err:
    print("KeyError", err)
# %% iterator_protocol
def count(n):
    yield from range(n)
it = iter(count(3))
print(it is iter(it), it.__next__(), [x for x in it])
# %% generator_method
class Tree:
    def __init__(self, items):
        self.items = items
    def __iter__(self):
        for x in self.items:
            yield x * 2
print(list(Tree([1, 2, 3])))
for v in Tree([5]):
    print(v)
# %% yield_in_expressions
def g():
    x = (yield)
    print("got", x)
    y = yield x, x
    print("got", y)
    return y
it = g()
print(next(it))
print(it.send("a"))
try:
    it.send("b")
except StopIteration as e:
    print("returned", e.value if hasattr(e, "value") else e.args[0])
# %% recursion_inside_generator
def rec(n):
    return rec(n + 1)
def g():
    yield rec(0)
try:
    next(g())
except RecursionError:
    print("RecursionError")
# %% many_live_generators
def count(n):
    for i in range(n):
        yield i
gens = [count(3) for _ in range(200)]
print(sum(next(g) + next(g) for g in gens))
