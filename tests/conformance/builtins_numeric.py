# %% int_conversions
print(int('12'), int(' -7 '), int(3.9), int(-3.9), int(True), int('ff', 16), int('101', 2), int('0x1f', 16))
print(int(), int('+5'), int('1_000'))
# %% float_conversions
print(float(3), float('2.5'), float('-0'), float(), float(' 1e-2 '), float('nan'))
# %% bool_conversion
print(bool(), bool(2), bool('False'))
# %% abs_values
print(abs(-5), abs(3.2), abs(-0.0), abs(True), abs(-2 ** 62))
# %% round_half_even
print(round(0.5), round(1.5), round(2.5), round(-0.5), round(-1.5), round(3.7), round(-3.7))
print(type(round(2.5)))
# %% round_ndigits
print(round(3.14159, 2), round(2.675, 2), round(1234.5678, -2), round(0.125, 2), round(5, 1), round(1.0, 3))
print(round(1234, -2), round(1250, -2), round(1350, -2))
# %% round_ndigits_none
print(round(2.5, None), round(7.49))
# %% min_max
print(min(3, 1, 2), max(3, 1, 2), min([4, 5]), max("abc"), min("b", "a"))
print(min([3, 1, 2], key=lambda v: -v), max(["aa", "b"], key=len))
print(min([], default=0), max([], default=None), max([1], default=5))
print(max(1, 2.5), min(-1, -1.0), max([(1, 'b'), (1, 'c')]))
# %% max_first_of_equal
print(max([("a", 1), ("b", 1)], key=lambda p: p[1]), min(["bb", "aa", "c"], key=len))
# %% sum_variants
print(sum([1, 2, 3]), sum([]), sum([0.1] * 10), sum(range(101)), sum([1, 2], 10), sum([[1], [2]], []))
print(sum([1.5, 2.5]), sum((True, True, False)))
# %% divisions_and_types
print(type(1), type(1.0), type(True), type("s"), type(None), type([]), type(()), type({}), type(set()), type(range(1)))
# %% int_str_roundtrip
n = 12345
print(str(n), len(str(n)), int(str(n)) == n)
# %% float_str
print(str(0.1), str(1e100), str(-2.5), str(1.0))

# %% str_of_ints_at_the_limits
print(str(0), str(-9223372036854775807 - 1), str(9223372036854775807), str(12345), str(True), str(-5))
print([str(i) for i in range(-3, 12, 5)], str(10 ** 18) + "!")
