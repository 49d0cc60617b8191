# %% if_elif_else
for x in [-5, 0, 5, 50]:
    if x < 0:
        print(x, "negative")
    elif x == 0:
        print(x, "zero")
    elif x < 10:
        print(x, "small")
    else:
        print(x, "big")
# %% if_without_else
x = 3
if x > 1:
    print("big")
if x > 10:
    print("never")
print("done")
# %% nested_if
a, b = 1, 2
if a:
    if b > a:
        print("b bigger")
    else:
        print("a bigger")
# %% conditional_expression
x = 7
print("odd" if x % 2 else "even", 1 if x > 10 else 2 if x > 5 else 3)
# %% and_or_values
print(0 or 5, 3 or 5, 0 and 5, 3 and 5, None or "default", "" or [] or 0)
print([] and 1, [1] and "yes", not [], not [0])
# %% short_circuit_side_effects
def t(x):
    print("t", x)
    return x
print(t(0) and t(1))
print(t(1) or t(2))
print(t(1) and t(2) and t(0) and t(3))
# %% pass_statement
def f():
    pass
class C:
    pass
if True:
    pass
print(f(), C.__name__)
# %% while_loop
n = 0
while n < 3:
    print("n", n)
    n += 1
# %% while_break_continue
i = 0
while True:
    i += 1
    if i % 2 == 0:
        continue
    if i > 7:
        break
    print(i)
# %% single_line_if
x = 1
if x: print("one-liner")
# %% is_none_checks
v = None
if v is None:
    print("none")
if v is not None:
    print("not none")
# %% truthy_conditions
for v in [0, 1, "", "a", [], [0], {}, None, 0.0]:
    if v:
        print(repr(v), "truthy")
    else:
        print(repr(v), "falsy")
# %% semicolon_statements
a = 1; b = 2; print(a + b)
