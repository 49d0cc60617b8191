# %% int_literals
print(0, 7, -3, 1000000, 1_000_000)
# %% hex_oct_bin_literals
print(0xff, 0o17, 0b1011, 0XA)
# %% float_literals
print(1.5, 2., .5, 1e-3, 1E3, 2.5e10, 1_000.5)
# %% bool_none
print(True, False, None)
print(repr(True), repr(None))
# %% string_quotes
print('single', "double", 'it\'s', "say \"hi\"")
# %% string_escapes
print("a\tb")
print("line1\nline2")
print("back\\slash")
print("\x41\u00e9")
print(len("\n"), len("\\n"))
# %% string_repr_escapes
print(repr("a\tb\nc"))
print(repr('it\'s'))
print(repr("say \"hi\""))
print(repr('both \' and "'))
print(repr("\\"))
# %% triple_quotes
s = """first
second
third"""
print(s)
print(len(s.splitlines()))
# %% triple_single_quotes
t = '''a 'quoted' "word"'''
print(t)
# %% implicit_concat
s = "abc" "def" 'ghi'
print(s)
x = ("part one, "
     "part two")
print(x)
# %% raw_string
print(r"C:\new\table")
print(len(r"\n"))
# %% empty_string
print(repr(""), len(''), "" == '')
# %% line_continuation_backslash
total = 1 + \
    2 + \
    3
print(total)
# %% line_continuation_brackets
xs = [
    1,
    2,
    3,
]
print(xs, sum(xs))
# %% repl_echo_free_expression_statement
1 + 2
"unused"
print("only this")
# %% unicode_string
s = "héllo wörld"
print(s, len(s))
print(s.upper())
# %% comments
# a comment
x = 5  # trailing comment
print(x)  # another
# %% tab_indentation
for i in range(2):
	if i:
		print('tab', i)
	else:
		print('zero')
