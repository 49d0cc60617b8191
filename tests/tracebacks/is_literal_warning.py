# CPython's compiler warns, before anything runs, at each comparison that uses `is` or
# `is not` with a literal (folded signed numbers, tuples of constants and constant subscripts
# count; None, True, False and ... do not), once per comparison.
x = 1
print("start")


def same(y):
    return y is 2


print(x is 1, x is not 1.5, x is None, x is (), x is (1, None), x is -1, "a" is "abc"[0])
print(same(2), x is True, x is ..., x is (x,), x is f"a", x is (1, None)[1])
if (x
        is "s"):
    pass
print(x is 1 is 2, "é" == "héllo"[1], "héllo"[1] is "héllo"[1])
chars = [c for c in "héllo€"]
print(chars, chars[1] is "héllo"[1], "a b c".split()[1] == "abc"[1])
print(undefined_name)
