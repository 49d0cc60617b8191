# %% construct_and_repr
print(frozenset(), frozenset([1, 2, 2, 3]), frozenset(range(4)))
print(repr(frozenset('a')), frozenset((5,)), frozenset({3, 1}))
fs = frozenset([1, 2])
print(frozenset(fs) is fs, type(fs), type(fs).__name__)
print(len(fs), len(frozenset()), bool(frozenset()), bool(fs))

# %% membership_and_iteration
fs = frozenset([3, 1, 2, 10, -1])
print(2 in fs, 7 in fs, 7 not in fs)
print(sorted(fs), list(frozenset([1, 2, 3])), set(fs) == fs)
for x in frozenset([4, 5]):
    print(x)

# %% hashing
fs = frozenset([1, 2])
d = {fs: 'a', frozenset(): 'empty'}
print(d[frozenset([2, 1])], d[frozenset()])
s = {frozenset([1]), frozenset([1]), frozenset([2])}
print(len(s), frozenset([1]) in s)
print(hash(frozenset([1, 2])) == hash(frozenset([2, 1])))
print(hash(frozenset()), hash(frozenset([1, 2, 3])), hash(frozenset([-1, 7])))
print({1, 2} in {frozenset([1, 2]), 3}, set() in {frozenset()}, {5} in {frozenset()})
print(frozenset([frozenset([1]), 2]))

# %% err_set_key_in_dict
print({1, 2} in {frozenset([1, 2]): 0})

# %% operators_result_types
a = frozenset([1, 2, 3])
b = {2, 3, 4}
for r in (a | b, a & b, a - b, a ^ b, b | a, b & a, b - a, b ^ a, a | a):
    print(type(r).__name__, sorted(r))
c = a
c |= {9}
print(c, a, c is a)

# %% methods
a = frozenset([1, 2, 3])
print(a.union([4]), a.intersection({2, 5}), a.difference([1]), a.symmetric_difference([3, 4]))
print(a.issubset([1, 2, 3, 4]), a.issuperset({1}), a.copy() is a)
print({1, 2}.union(a), type({5}.intersection(a)).__name__)
print(set(a).issubset(a), {1}.issubset(frozenset([1, 2])))

# %% comparisons
a = frozenset([1, 2])
print(a == {1, 2}, {1, 2} == a, a == frozenset([2, 1]), a != frozenset([1]))
print(a < {1, 2, 3}, a <= {1, 2}, a > frozenset([1]), a >= {3})
print(a == [1, 2], frozenset() == set())

# %% isinstance
fs = frozenset([1])
print(isinstance(fs, frozenset), isinstance(fs, set), isinstance({1}, frozenset))
print(isinstance(fs, (set, frozenset)), type(fs) is frozenset)

# %% err_add
frozenset([1]).add(2)

# %% err_remove
fs = frozenset([1])
fs.remove(1)

# %% err_discard
frozenset().discard(1)

# %% err_update
frozenset().update([1])

# %% err_unhashable_element
frozenset([[1]])

# %% err_not_iterable
frozenset(3)

# %% err_too_many_args
frozenset([1], [2])

# %% err_item_assignment
fs = frozenset([1])
fs[0] = 2

# %% err_subscript
frozenset([1])[0]

# %% err_or_list
frozenset([1]) | [2]

# %% isdisjoint
s = {1, 2}
print(s.isdisjoint({3}), s.isdisjoint([2]), frozenset([1]).isdisjoint(s))
print({1}.isdisjoint(range(3)), set().isdisjoint([]), frozenset().isdisjoint(iter([1])))
print(frozenset([1, 2]).isdisjoint(frozenset([3, 4])), {(1, 2)}.isdisjoint([(1, 2)]))

# %% err_isdisjoint_not_iterable
{1}.isdisjoint(5)

# %% err_isdisjoint_no_args
frozenset().isdisjoint()
