# %% del_name
x = 5
del x
try:
    print(x)
except NameError as e:
    print(e)
# %% del_list_item
xs = [1, 2, 3, 4]
del xs[0]
del xs[-1]
print(xs)
# %% del_dict_item
d = {'a': 1, 'b': 2}
del d['a']
print(d)
# %% del_attr
class C:
    pass
c = C()
c.x = 1
c.y = 2
del c.x
print(hasattr(c, 'x'), c.y)
# %% del_multiple
a, b = 1, 2
del a, b
print('ok')
# %% del_missing_attr
class C:
    pass
del C().nope
# %% del_name_then_use
y = 1
del y
print(y)
# %% del_list_out_of_range
xs = [1]
del xs[3]
# %% del_alias_keeps_object
a = [1, 2]
b = a
del a
print(b)
