# %% literals
t = (1, 2, 3)
print(t, (), (1,), 1, (1))
u = 4, 5
print(u, type(u))
# %% indexing_and_len
t = ('a', 'b', 'c')
print(t[0], t[-1], len(t), t[1:])
# %% concat_repeat
print((1, 2) + (3,), (0,) * 3)
# %% count_index
t = (1, 2, 2, 3)
print(t.count(2), t.index(3))
# %% comparison
print((1, 2) < (1, 3), (1, 2) == (1, 2), (2,) > (1, 5), (1, 2) < (1, 2, 0))
# %% tuple_builtin
print(tuple([1, 2]), tuple("ab"), tuple(range(3)), tuple())
# %% nested
t = ((1, 2), (3, 4))
print(t[1][0], t)
# %% as_dict_keys
d = {(0, 0): 'origin', (1, 0): 'x'}
print(d[(0, 0)], d[1, 0])
# %% containing_mutable
t = ([1], 2)
t[0].append(5)
print(t)
# %% membership
print(2 in (1, 2), 'x' in ('a',))
# %% returning_tuples
def minmax(xs):
    return min(xs), max(xs)
r = minmax([3, 1, 2])
print(r, r[0])
