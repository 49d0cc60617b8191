# %% list_comp
print([x * x for x in range(6)])
# %% list_comp_if
print([x for x in range(20) if x % 3 == 0])
# %% list_comp_conditional_expr
print([x if x % 2 else -x for x in range(6)])
# %% list_comp_over_string_and_dict
print([c.upper() for c in "abc"])
d = {'a': 1, 'b': 2}
print([k + str(v) for k, v in d.items()])
# %% dict_comp
print({x: x ** 2 for x in range(4)})
print({k: v for k, v in zip("abc", range(3)) if v != 1})
# %% dict_comp_invert
d = {'a': 1, 'b': 2}
print({v: k for k, v in d.items()})
# %% generator_in_sum
print(sum(x * x for x in range(4)))
print(sum(x for x in [0.5, 0.25]))
# %% generator_in_calls
print(max(len(w) for w in ["a", "abc", "ab"]))
print(any(x > 3 for x in [1, 2, 5]), all(x > 0 for x in [1, -1]))
print(list(x * 2 for x in range(3)), tuple(c for c in "ab"))
print(", ".join(str(x) for x in [1, 2, 3]))
# %% comp_scope_does_not_leak
x = "outer"
ys = [x for x in range(3)]
print(x, ys)
# %% comp_uses_enclosing
k = 10
print([k + i for i in range(3)])
# %% nested_comp_for_matrix
m = [[1, 2, 3], [4, 5, 6]]
print([[row[i] for row in m] for i in range(3)])
print([[0] * 2 for _ in range(2)])
# %% comp_with_function_calls
def sq(v):
    return v * v
print([sq(v) for v in [1, 2, 3] if sq(v) > 1])
# %% comp_tuple_unpack
pairs = [(1, 'a'), (2, 'b')]
print([n * s for n, s in pairs])
print({s: n for n, s in pairs})
# %% comp_over_enumerate
print([(i, c) for i, c in enumerate("xyz", 1)])
# %% double_for_comprehension
print([(a, b) for a in range(2) for b in "xy"])
# %% comp_with_multiple_conditions
print([x for x in range(30) if x % 2 == 0 if x % 3 == 0])
