# %% literal_and_repr
print([], [1, 2, 3], [1, 'a', None, 2.5, [True]])
# %% indexing
xs = [10, 20, 30, 40]
print(xs[0], xs[-1], xs[len(xs) - 2])
# %% append_extend_insert
xs = [1]
xs.append(2)
xs.extend([3, 4])
xs.extend((5,))
xs.insert(0, 0)
xs.insert(100, 99)
xs.insert(-1, 50)
print(xs)
# %% pop
xs = [1, 2, 3, 4]
print(xs.pop(), xs)
print(xs.pop(0), xs)
print(xs.pop(-1), xs)
# %% remove_index_count
xs = [3, 1, 3, 2, 3]
xs.remove(3)
print(xs)
print(xs.index(3), xs.count(3), xs.count(9), xs.index(2))
# %% sort_and_reverse
xs = [3, 1, 2]
r = xs.sort()
print(r, xs)
xs.sort(reverse=True)
print(xs)
xs.reverse()
print(xs)
words = ["banana", "Apple", "cherry"]
words.sort(key=str.lower)
print(words)
words.sort(key=len)
print(words)
# %% sort_stable
pairs = [(1, 'b'), (0, 'a'), (1, 'a'), (0, 'b')]
pairs.sort(key=lambda p: p[0])
print(pairs)
# %% copy_clear
a = [1, [2, 3]]
b = a.copy()
b.append(4)
b[1].append(99)
print(a, b)
b.clear()
print(b, len(b))
# %% concat_repeat
print([1, 2] + [3], [0] * 3, 2 * [None])
# %% item_assignment
xs = [1, 2, 3]
xs[0] = 'a'
xs[-1] = 'c'
print(xs)
# %% aliasing
a = [1, 2]
b = a
b.append(3)
print(a, a is b, a == [1, 2, 3])
# %% nested
m = [[1, 2], [3, 4]]
m[1][0] = 30
print(m, m[0][1], len(m))
# %% membership
xs = [1, 2, 3]
print(2 in xs, 5 in xs, 5 not in xs)
# %% comparison
print([1, 2] == [1, 2], [1, 2] < [1, 2, 0], [2] > [1, 9], [] == [])
# %% list_of_range_and_str
print(list(range(5)), list("abc"), list((1, 2)))
# %% min_max_sum_len
xs = [4, -2, 7]
print(min(xs), max(xs), sum(xs), len(xs))
# %% multiply_shares_refs
grid = [[0] * 2] * 2
grid[0][0] = 1
print(grid)
# %% self_referential_free_repr_of_strings
print(["it's", 'say "x"'])
# %% equality_with_tuple
print([1, 2] == (1, 2))
