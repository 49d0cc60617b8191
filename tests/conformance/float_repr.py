# %% classic
print(0.1 + 0.2)
print(repr(0.1 + 0.2))
print(0.1, 0.2, 0.3)
# %% thirds
print(1 / 3, 2 / 3, 10 / 3)
# %% large_thresholds
print(1e15, 1e16, 1e17, 123456789012345678.0)
print(1e22, 1.5e300)
# %% small_thresholds
print(0.001, 0.0001, 0.00001, 1e-5, 1.5e-7)
# %% negative_zero
print(-0.0, 0.0, -0.0 == 0.0, repr(-0.0))
print(0.0 * -1)
# %% inf_nan
inf = float('inf')
nan = float('nan')
print(inf, -inf, nan)
print(inf + 1, inf - inf, inf * 0)
print(nan == nan, nan != nan, inf > 1e308)
# %% float_from_strings
print(float('1.5'), float('  2  '), float('-3'), float('1e3'), float('Infinity'), float('-inf'))
# %% whole_floats
print(1.0, 2.0 * 3, 100.0, 1e5, float(7))
# %% many_digits
print(3.141592653589793, 2.718281828459045, 1.0000000000000002)
print(0.30000000000000004 == 0.1 + 0.2)
# %% str_vs_repr
x = 0.1 + 0.7
print(str(x), repr(x))
# %% float_in_containers
print([0.1, 1e-10, 1e20, -0.0])
print((1.5,), {'a': 2.0})
# %% large_float_mult
print(1e308 * 10, -1e308 * 10)
print(2.0 ** 0.5, 10.0 ** 20, 10.0 ** -20)
# %% float_int_conversion
print(int(1e15), int(-2.7), int(2.9999), float(2 ** 53), float(2 ** 53 + 1))
# %% extremes
print(5e-324, 1.7976931348623157e308, 2.2250738585072014e-308, float('1e500'), -float('1e500'))
# %% round_trip_shortest
print(0.1 * 3, 1.1 + 2.2, 100.0 / 3, 2 / 7, 1e-7 * 3)
# %% int_like_floats_large
print(1e15 + 0.3, 123456789.0 * 10, 2.0 ** 60, 9.999999999999999e15)
