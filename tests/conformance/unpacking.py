# %% tuple_unpack
a, b = 1, 2
print(a, b)
# %% swap
x, y = 1, 2
x, y = y, x
print(x, y)
# %% unpack_list_and_string
a, b, c = [1, 2, 3]
d, e = "hi"
print(a, b, c, d, e)
# %% nested_unpack
(a, b), c = (1, 2), 3
print(a, b, c)
x, (y, z) = 1, [2, 3]
print(x, y, z)
# %% chained_assignment
a = b = c = 0
print(a, b, c)
xs = ys = []
xs.append(1)
print(ys, xs is ys)
# %% unpack_in_for
for a, b in [(1, 2), (3, 4)]:
    print(a * b)
for (a, b), c in [((1, 2), 3)]:
    print(a, b, c)
# %% unpack_dict_items
d = {'x': 1}
(k, v), = d.items()
print(k, v)
# %% unpack_function_result
def stats(xs):
    return min(xs), max(xs), sum(xs) / len(xs)
lo, hi, mean = stats([1, 2, 3, 6])
print(lo, hi, mean)
# %% parenthesized_and_list_targets
(a, b) = 1, 2
[c, d] = 3, 4
print(a, b, c, d)
# %% attribute_and_subscript_targets
class O:
    pass
o = O()
xs = [0, 0]
o.a, xs[1] = "attr", "item"
print(o.a, xs)
# %% subscript_chain_assignment
m = [[0, 0], [0, 0]]
m[0][1] = 5
d = {}
d['k'] = d2 = {}
d2['inner'] = 1
print(m, d)
# %% unpack_range_and_zip
a, b, c = range(3)
print(a, b, c)
p, q = zip([1, 2], [3, 4])
print(p, q)
# %% evaluation_order_of_rhs
xs = [1, 2]
i = 0
i, xs[i] = 1, 99
print(i, xs)
# %% single_element_tuple_unpack
t = (5,)
(v,) = t
w, = [6]
print(v, w)
