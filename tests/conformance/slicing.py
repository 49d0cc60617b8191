# %% list_slices
xs = [0, 1, 2, 3, 4, 5]
print(xs[1:3], xs[:2], xs[3:], xs[:], xs[-2:], xs[:-2])
# %% step_slices
xs = list(range(10))
print(xs[::2], xs[1::3], xs[::-1], xs[::-2], xs[7:2:-1], xs[2:7:-1])
# %% out_of_range_slices
xs = [1, 2, 3]
print(xs[5:], xs[-10:2], xs[1:100], xs[3:1])
# %% string_slices
s = "hello world"
print(s[:5], s[6:], s[::-1], s[-5:], s[::3])
# %% tuple_slices
t = (1, 2, 3, 4)
print(t[1:3], t[::-1], t[:0])
# %% slice_copy_independent
a = [1, 2, 3]
b = a[:]
b[0] = 99
print(a, b, a is b)
# %% slice_assignment
xs = [0, 1, 2, 3, 4]
xs[1:3] = ['a', 'b', 'c']
print(xs)
xs[:2] = []
print(xs)
xs[::2] = [7, 8]
print(xs)
# %% del_slice
xs = list(range(8))
del xs[::3]
print(xs)
del xs[1:3]
print(xs)
# %% negative_indices
xs = [10, 20, 30]
print(xs[-1], xs[-3], "abc"[-2])
# %% range_slicing
r = range(10)
print(r[2:5], list(r[::3]), r[-1])
# %% slice_with_variables
xs = list(range(10))
start, stop = 2, 8
print(xs[start:stop], xs[start:], xs[:stop:3])
# %% slice_none_bounds
xs = [1, 2, 3, 4]
print(xs[None:2], xs[1:None], xs[::None])
