# %% concat_repeat
print("ab" + "cd", "ab" * 3, 3 * "x", "-" * 0)
# %% indexing
s = "python"
print(s[0], s[-1], s[2], s[-3])
# %% split_default
print("  a  b   c ".split())
print("a,b,,c".split(","))
print("a b c d".split(" ", 2))
print("".split(), "".split(","))
# %% join
print(", ".join(["a", "b", "c"]))
print("".join(["x", "y"]))
print("-".join("abc"))
print(" ".join(str(i) for i in range(4)))
# %% strip_family
s = "  hello  "
print(repr(s.strip()), repr(s.lstrip()), repr(s.rstrip()))
print("xxhixx".strip("x"), "abcba".strip("ab"))
print(repr("\t\n text \n".strip()))
# %% replace
print("hello world".replace("o", "0"))
print("aaaa".replace("a", "b", 2))
print("abc".replace("x", "y"))
# %% case_methods
print("Hello World".upper(), "Hello World".lower())
print("hello world".title(), "hELLO wORLD".capitalize())
print("hello".capitalize(), "it's a test".title())
# %% startswith_endswith
s = "model.pt"
print(s.startswith("mod"), s.endswith(".pt"), s.endswith((".py", ".pt")), s.startswith("x"))
# %% find_index_count
s = "banana"
print(s.find("an"), s.find("x"), s.find("a", 2), s.index("n"))
print(s.count("a"), s.count("an"), s.count("z"), s.rfind("a"))
# %% padding
print(repr("ab".center(6)), repr("ab".center(7, "*")), repr("abc".center(2)))
print(repr("ab".ljust(5)), repr("ab".rjust(5)), repr("ab".ljust(5, ".")))
print("42".zfill(5), "-42".zfill(5), "abc".zfill(2))
# %% predicates
print("123".isdigit(), "12a".isdigit(), "".isdigit())
print("abc".isalpha(), "ab1".isalnum(), "   ".isspace(), "ABC".isupper(), "abc".islower())
# %% splitlines
text = "one\ntwo\r\nthree\n"
print(text.splitlines())
print("no newline".splitlines())
print("a\n\nb".splitlines())
# %% in_operator
print("ell" in "hello", "xyz" in "hello", "" in "abc", "a" not in "bcd")
# %% len_and_iteration
s = "abc"
print(len(s))
for ch in s:
    print(ch, end="|")
print()
# %% comparisons
print("apple" < "banana", "apple" == "apple", "a" * 3 == "aaa", "B" < "a")
# %% str_of_values
print(str(42), str(3.5), str(True), str(None), str([1, 'a']), str((1,)))
# %% repr_of_values
print(repr(42), repr('hi'), repr([1, 'a', None]), repr({'k': 'v'}))
# %% immutability_methods_return_new
s = "abc"
t = s.upper()
print(s, t)
# %% string_format_method
print("{} + {} = {}".format(1, 2, 3))
print("{0}{1}{0}".format("a", "b"))
print("{name} is {age}".format(name="Ann", age=30))
print("{:>6}|{:<6}|{:^6}|".format("r", "l", "c"))
print("{:.3f} {:5d} {:,}".format(3.14159, 42, 1234567))
print("{!r} {}".format("x", "x"))
print("{{literal}} {}".format(1))
# %% format_method_index_attr
pt = [10, 20]
print("{0[1]} {0[0]}".format(pt))
d = {'lr': 0.01}
print("lr={0[lr]}".format(d))
# %% multiply_negative
print(repr("ab" * -1))
# %% string_slicing_basic
s = "abcdefg"
print(s[1:4], s[:3], s[4:], s[::2], s[::-1], s[-3:])
# %% ord_free_escapes_length
print(len("tab\there"), "tab\there".split("\t"))
# %% partition_like_split
key, _, value = "lr=0.01".partition("=")
print(key, value)
print("a=b=c".split("=", 1))
print("a b c".rsplit(" ", 1))
# %% splitlines_boundaries
print("a\rb\nc\r\nd\x0be\x0cf\x1cg\u2028h".splitlines(), "x\n".splitlines(), "".splitlines())
print("ab\ncd\n".splitlines(True), "ab\r\ncd".splitlines(keepends=True))
print("a\r\rb\r\n\r\nc\x85d\u2029".splitlines(True), "a\nb".splitlines(keepends=0), "é\n😀\r".splitlines(1))
try:
    "a".splitlines(1, 2)
except TypeError as e:
    print(e)
print([0] * 3, [1, 2] * 2, [[]] * 2, (1,) * 3, (1, 2) * 2, [] * 5, [1] * -1, len(["ab"] * 1000))
# %% python_whitespace
# str.split/strip/isspace know the information separators \x1c-\x1f as whitespace, as Python does.
s = "\x1ca\x1fb\x1dc\x1e \u3000d\x85"
print(s.split(), repr(s.strip()), repr(s.lstrip()), repr(s.rstrip()), "\x1f".isspace(), "\x1c\x1d".isspace(), s.rsplit(None, 1))
print("a\x1fb".split(maxsplit=1), "\x1f".strip() == "")
print("a,b,c".rsplit(sep=",", maxsplit=1), "  a b  ".split(maxsplit=1), "  a b  ".rsplit(maxsplit=1))
# %% one_character_strings
# Characters below U+0100 come as shared one-character strings; the rest as new ones.
s = "aé€😀 b"
print([c for c in s], [s[i] for i in range(len(s))], [s[-i] for i in range(1, len(s) + 1)])
for c in s:
    print(c, ord(c), len(c), c == s[s.index(c)], end="; ")
print()
for c in "":
    print("never")
else:
    print("empty walk")
t = "xyz"
for c in t:
    t = t + c
print(t, "".join(c for c in "abc"), "a b".split(), "ab"[::-1], list("é€"), sorted("cba"))
for i, c in enumerate("ab"):
    print(i, c)
for bad in (len(s), -len(s) - 1, 2**40):
    try:
        s[bad]
    except IndexError as e:
        print(e, s[len(s) - 1], s[-len(s)])
