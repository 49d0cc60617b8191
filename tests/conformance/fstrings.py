# %% basic
name = "Ada"
n = 3
print(f"hello {name}, you have {n} messages")
# %% expressions
a, b = 3, 4
print(f"{a + b} {a * b} {a / b} {a ** 2}")
print(f"{[x * 2 for x in range(3)]}")
print(f"{'yes' if a < b else 'no'}")
# %% method_calls_inside
s = "word"
print(f"{s.upper()} {len(s)} {s[::-1]}")
d = {'k': 1}
print(f"{d['k']} {d.get('z', 0)}")
# %% conversions
s = "hi"
print(f"{s!r} {s!s} {s}")
print(f"{[s]!s} {3.5!r}")
# %% float_precision
loss = 0.123456789
print(f"{loss:.4f} {loss:.2f} {loss:.0f} {2.5:.0f} {3.5:.0f}")
# %% alignment
n = 42
print(f"[{n:>5}] [{n:<5}] [{n:^5}] [{n:05}]")
print(f"[{'ab':>5}] [{'ab':<5}] [{'ab':^5}] [{'ab':*^6}]")
# %% thousands
print(f"{1234567:,} {1234567.891:,.2f} {1000:_}")
# %% zero_padded_float
print(f"{3.14159:08.3f} {-3.14159:08.3f} {2.5:+.1f}")
# %% exponent
print(f"{12345.678:e} {0.000123:.2e} {1e-10:E}")
# %% percent
print(f"{0.256:%} {0.256:.1%} {1:.0%}")
# %% hex_oct_bin
print(f"{255:x} {255:X} {255:#x} {8:o} {5:b} {5:08b}")
# %% nested_width
w = 8
p = 3
x = 3.14159265
print(f"[{x:{w}.{p}f}]")
print(f"[{'hi':>{w}}]")
# %% braces_escape
print(f"{{}} {{{1}}}")
# %% general_format
print(f"{1234.5:g} {0.00001234:g} {1e20:g} {100.0:g}")
# %% int_with_float_spec
print(f"{5:.2f} {7:e}")
# %% sign
print(f"{5:+} {-5:+} {5: } {-5: }")
# %% nested_fstring_quotes
items = ["a", "b"]
print(f"{', '.join(items)}")
print(f'{"quoted"}')
# %% bools_and_none
print(f"{True} {None} {False:>6}")
# %% str_of_objects
class P:
    def __str__(self):
        return "P-str"
    def __repr__(self):
        return "P-repr"
p = P()
print(f"{p} {p!r} {p!s}")
# %% multiline_fstring
a = 1
b = 2
msg = (f"a={a}, "
       f"b={b}")
print(msg)
# %% width_with_number_strings
for i, v in enumerate([0.5, 12.25, 100.0]):
    print(f"{i:2d} | {v:7.2f} |")
