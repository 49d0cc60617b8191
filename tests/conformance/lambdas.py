# %% basic
sq = lambda x: x * x
print(sq(7), (lambda a, b: a - b)(10, 3))
# %% defaults_and_kwargs
f = lambda x, y=2: x ** y
print(f(3), f(3, 3), f(y=0, x=9))
# %% no_args
g = lambda: "nothing"
print(g())
# %% as_sort_key
pts = [(3, 'c'), (1, 'a'), (2, 'b')]
print(sorted(pts, key=lambda p: p[1], reverse=True))
print(max(["aa", "b", "cccc"], key=lambda s: len(s)))
# %% conditional_body
sign = lambda x: "pos" if x > 0 else ("neg" if x < 0 else "zero")
print(sign(3), sign(-1), sign(0))
# %% lambda_name
f = lambda: 0
print(f.__name__)
# %% varargs_lambda
f = lambda *a, **k: (a, k)
print(f(1, 2, z=3))
# %% lambda_in_dict
ops = {'add': lambda a, b: a + b, 'mul': lambda a, b: a * b}
print(ops['add'](2, 3), ops['mul'](2, 3))
