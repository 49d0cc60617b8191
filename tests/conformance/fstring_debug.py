# %% debug_expr_spaces
n = 21
print(f"{n * 2 = }")
# %% debug_name
n = 21
print(f"{n=}")
# %% debug_spec
x = 3.14159
print(f"{x=:.3f}")
# %% debug_spec_spaces
x = 3.14159
print(f"{x = :10.2f}|")
# %% debug_str_repr
s = "hi"
print(f"{s=}")
# %% debug_conv_s
s = "hi"
print(f"{s = !s}")
# %% debug_conv_r_spec
n = 7
print(f"{n=!r:>6}|")
# %% conv_r
x = 3.14159
print(f"{x!r}")
# %% conv_r_str
print(f"{'a b'!r}")
# %% conv_a
print(f"{'x'!a} {'café'!a} {'café'!r}")
# %% nested_quotes
n = 1
print(f"{'nested'} {'x' if n else 'y'}")
# %% nested_quotes_double_inside_single
d = {"k": 5}
print(f'{d["k"]=}')
# %% debug_subscript
d = {'a': 1}
print(f"{d['a']=}")
# %% debug_call
print(f"{len('abc')=}")
# %% debug_list
print(f"{[1,2]=}")
# %% debug_whitespace_kept
n = 3
print(f"{n    =   }")
# %% debug_concat
print(f'{"a" + "b"=}')
# %% debug_float_literal
print(f"{3.0=}")
# %% debug_str_spec
s = "hi"
print(f"{s=:>5}|")
# %% nested_spec
n = 42
w = 8
print(f"{n:{w}}|{n:>{w}}|{n:{'<'}{w}}|")
# %% triple_quoted
n = 5
print(f"""{n=} and {'q'}""")
# %% debug_comparison_not_debug
a = 1
print(f"{a == 1}", f"{a != 2}", f"{a >= 1}")
# %% debug_bool
ok = True
print(f"{ok=}", f"{not ok = }")
# %% debug_none
v = None
print(f"{v=}")
# %% debug_tuple
t = (1, 'a')
print(f"{t=}")
# %% debug_attr
class P:
    x = 2.5
print(f"{P.x=:.1f}")
# %% debug_multiple
a, b = 1, 2
print(f"{a=}, {b=}, {a+b=}")
# %% escaped_braces
n = 1
print(f"{{n}} {n=} {{{n}}}")
