# %% is_none
x = None
print(x is None, x is not None, None is None)
# %% is_same_object
a = [1, 2]
b = a
c = [1, 2]
print(a is b, a is c, a == c, a is not c)
# %% id_equality
a = [1]
b = a
print(id(a) == id(b), id(a) == id([1]))
# %% bool_singletons
print(True is True, (1 == 1) is True, bool(0) is False)
# %% class_identity
class A:
    pass
x = A()
y = A()
print(x is x, x is y, x == y, type(x) is type(y))
# %% in_uses_equality
a = [1, 2]
print([1, 2] in [a], a in [[1, 2]])
# %% mutation_visible_through_alias
d1 = {'k': 1}
d2 = d1
d2['k'] = 2
print(d1, d1 is d2)
# %% copy_is_not_same
xs = [1, 2]
ys = list(xs)
zs = xs.copy()
print(xs is ys, xs is zs, xs == ys == zs)
