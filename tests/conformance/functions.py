# %% simple_def
def add(a, b):
    return a + b
print(add(2, 3), add("a", "b"))
# %% no_return_is_none
def f():
    x = 1
print(f())
def g():
    return
print(g())
# %% defaults
def greet(name, greeting="Hello", punct="!"):
    return greeting + ", " + name + punct
print(greet("Ann"), greet("Bo", "Hi"), greet("Cy", punct="?"))
# %% keyword_args
def f(a, b, c):
    return (a, b, c)
print(f(1, 2, 3), f(c=3, b=2, a=1), f(1, c=3, b=2))
# %% mutable_default_shared
def app(x, acc=[]):
    acc.append(x)
    return acc
print(app(1), app(2))
# %% default_evaluated_once
n = 5
def f(x=n):
    return x
n = 10
print(f())
# %% recursion
def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)
print(fact(10), [fib(i) for i in range(10)])
# %% multiple_return_values
def divmod2(a, b):
    return a // b, a % b
q, r = divmod2(17, 5)
print(q, r)
# %% functions_are_values
def sq(x):
    return x * x
h = sq
print(h(4), h is sq, sq.__name__)
fs = [sq, abs]
print([fn(-3) for fn in fs])
# %% higher_order
def apply_twice(fn, x):
    return fn(fn(x))
print(apply_twice(lambda v: v * 3, 2))
# %% early_return
def first_even(xs):
    for x in xs:
        if x % 2 == 0:
            return x
    return None
print(first_even([1, 3, 4, 6]), first_even([1]))
# %% local_scope
x = "global"
def f():
    x = "local"
    return x
print(f(), x)
# %% read_global
count = 7
def show():
    return count * 2
print(show())
# %% global_statement
counter = 0
def inc():
    global counter
    counter += 1
inc()
inc()
print(counter)
# %% nested_function
def outer(x):
    def inner(y):
        return x + y
    return inner(10)
print(outer(5))
# %% docstring_function
def f():
    """Return one."""
    return 1
print(f(), f.__doc__)
# %% print_function_type
def f():
    pass
print(type(f).__name__)
# %% call_with_expressions
def f(a, b=2):
    return a * b
print(f(1 + 1), f(b=3, a=f(2)))
# %% keyword_only_after_star_args
def f(*args, scale=1):
    return [a * scale for a in args]
print(f(1, 2), f(1, 2, scale=10))
