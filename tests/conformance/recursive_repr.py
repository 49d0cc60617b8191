# %% list_contains_itself
a = [1]
a.append(a)
print(a)
# %% dict_contains_itself
d = {}
d["k"] = d
print(d, len(d))
# %% deep_but_finite_nesting
x = []
for i in range(50):
    x = [x]
print(str(x).count("["))
# %% recursion_limit
def f(n):
    return f(n + 1)
try:
    f(0)
except RecursionError as e:
    print("RecursionError:", e)
