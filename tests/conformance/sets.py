# %% literal_and_dedupe
s = {3, 1, 2, 3, 1}
print(s, len(s))
# %% empty_set
s = set()
print(s, type(s), len(s))
# %% add_remove_discard
s = {1, 2}
s.add(3)
s.add(2)
s.remove(1)
s.discard(100)
s.discard(2)
print(s)
# %% operators
a = {1, 2, 3}
b = {2, 3, 4}
print(a | b, a & b, a - b, b - a, a ^ b)
# %% methods
a = {1, 2, 3}
b = {3, 4}
print(a.union(b), a.intersection(b), a.difference(b), a.union([9]))
# %% membership
s = {1, 2, 3}
print(2 in s, 7 in s, 7 not in s)
# %% from_list
print(set([1, 1, 2]), sorted(set("hello")))
# %% subset_comparisons
print({1, 2} <= {1, 2, 3}, {1, 2} < {1, 2}, {1, 2} == {2, 1}, {1, 2, 3} >= {1})
# %% strings_in_set_membership_only
tags = {"train", "eval"}
print("train" in tags, len(tags), sorted(tags))
# %% iteration_small_ints_sorted
for x in sorted({5, 3, 9}):
    print(x)
# %% set_of_tuples_len
pts = {(0, 0), (1, 1), (0, 0)}
print(len(pts), (1, 1) in pts)
# %% update_via_augmented
s = {1}
s |= {2}
s &= {2, 3}
print(s)
