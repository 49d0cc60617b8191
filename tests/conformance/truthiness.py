# %% bool_of_values
print(bool(0), bool(1), bool(-1), bool(0.0), bool(0.1), bool(""), bool(" "))
print(bool([]), bool([0]), bool(()), bool({}), bool({0: 0}), bool(set()), bool(None))
print(bool(range(0)), bool(range(1)))
# %% bool_is_int
print(True == 1, False == 0, True + 1, isinstance(True, int), type(True))
print([1, 2, 3][True])
# %% not_operator
print(not 0, not "", not [1], not None, not not "x")
# %% custom_len_truthiness
class Empty:
    def __len__(self):
        return 0
class Full:
    def __len__(self):
        return 3
print(bool(Empty()), bool(Full()), "yes" if Full() else "no")
# %% default_object_truthy
class Thing:
    pass
print(bool(Thing()))
# %% and_or_return_operands
print(1 and 2, 0 and 2, 1 or 2, 0 or 2, None or [] or "last")
print((0 or None) is None, ("" and 1) == "")
# %% if_on_containers
x = []
if not x:
    print("empty list")
x.append(0)
if x:
    print("non-empty even though element is falsy")
# %% while_on_number
n = 3
while n:
    print(n)
    n -= 1
# %% str_of_bool
print(str(True), repr(False), f"{True}", "%s" % False, int(True), float(False))
