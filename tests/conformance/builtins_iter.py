# %% len_of_things
print(len([1, 2]), len("abc"), len((1,)), len({'a': 1}), len({1, 2, 2}), len(range(10)), len(""))
# %% range_repr_and_members
r = range(1, 10, 2)
print(r, list(r), r[1], len(r), 5 in r, 4 in r)
# %% enumerate_values
print(list(enumerate("ab")), list(enumerate([10, 20], start=5)), list(enumerate([], 1)))
# %% zip_values
print(list(zip([1, 2, 3], "ab")), list(zip()), list(zip([1], [2], [3])))
print(dict(zip(["a", "b"], [1, 2])))
# %% sorted_variants
print(sorted([3, 1, 2]), sorted("bca"), sorted([3, 1, 2], reverse=True))
print(sorted(["bb", "a", "ccc"], key=len), sorted([-3, 2, -1], key=abs))
print(sorted({3: 'x', 1: 'y'}), sorted((2, 1)))
# %% sorted_returns_new
xs = [2, 1]
ys = sorted(xs)
print(xs, ys)
# %% reversed_values
print(list(reversed([1, 2, 3])), list(reversed("ab")), list(reversed(range(3))), list(reversed((1, 2))))
# %% any_all
print(any([]), all([]), any([0, "", None]), any([0, 1]), all([1, "a"]), all([1, 0]))
# %% iter_next
it = iter([1, 2, 3])
print(next(it), next(it), next(it), next(it, "done"), next(it, None))
# %% iter_over_string_and_dict
it = iter("ab")
print(next(it), next(it))
d = iter({'x': 1, 'y': 2})
print(next(d), next(d))
# %% list_tuple_set_dict_constructors
print(list(), tuple(), set(), dict())
print(list({'a': 1, 'b': 2}), tuple({'k': 0}), sorted(set([3, 3, 1])))
print(list(range(3)), list((1, 2)), list(map_free for map_free in "xy"))
# %% iterator_consumed
it = iter([1, 2, 3])
print(list(it), list(it))
# %% enumerate_object_type_name
e = enumerate([1])
z = zip([1], [2])
print(type(e).__name__, type(z).__name__, type(iter([])).__name__)
# %% next_on_enumerate_zip
e = enumerate("ab")
print(next(e))
z = zip([1, 2], [3, 4])
print(next(z), next(z), next(z, "end"))
# %% map_and_filter_are_lazy
import itertools
m = map(print, [1, 2])
print("made", type(m).__name__)
f = filter(print, [3])
print("filter made", type(f).__name__)
doubled = map(lambda x: x * 2, itertools.count())
print(next(doubled), next(doubled), next(doubled))
evens = filter(lambda x: x % 2 == 0, itertools.count(1))
print(next(evens), next(evens))
print(list(m), list(f))
print(list(map(pow, [2, 3, 4], [3, 2])), list(filter(None, [0, 1, "", "x", [], [0]])))
m = map(str, [1])
print(next(m), next(m, "end"), list(m))
# %% map_error_raised_when_consumed
m = map(int, ["1", "x"])
print("made")
try:
    print(list(m))
except ValueError as e:
    print("ValueError:", e)
# %% reversed_reads_the_live_list_and_names_its_type
l = [1, 2, 3]
r = reversed(l)
l[0] = 9
print(list(r))
l = [1, 2, 3]
r = reversed(l)
print(next(r))
l.clear()
print(list(r))
print(list(reversed((1, 2))), list(reversed("ab")), list(reversed(range(3))), list(reversed({"a": 1, "b": 2})))
it = iter([1, 2])
try:
    reversed(it)
except TypeError as e:
    print(e)
class S:
    def __len__(self): return 3
    def __getitem__(self, i):
        if i >= 3: raise IndexError
        return i * 10
class R:
    def __reversed__(self): return iter("zyx")
class N:
    def __iter__(self): return iter([1])
print(list(reversed(S())), list(reversed(R())))
try:
    reversed(N())
except TypeError as e:
    print(e)
print(type(reversed([])).__name__, type(reversed(())).__name__, type(reversed("")).__name__, type(reversed(range(2))).__name__, type(reversed({})).__name__)
print(list(reversed(range(0, 10, 3))), list(reversed(range(5, 0, -2))), list(reversed(range(0))))
l = [1, 2, 3]
r = reversed(l)
l.append(4)
print(list(r))
