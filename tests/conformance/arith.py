# %% int_basic
print(2 + 3, 2 - 3, 2 * 3, 7 / 2, 7 // 2, 7 % 2, 2 ** 10)
# %% true_division_always_float
print(6 / 3, type(6 / 3))
print(1 / 4)
# %% floor_div_negatives
print(-7 // 2, 7 // -2, -7 // -2)
print(-7.0 // 2, 7.5 // 2)
# %% modulo_negatives
print(-7 % 3, 7 % -3, -7 % -3)
print(-7.5 % 2, 7.5 % -2)
print(5.5 % 2)
# %% power_variants
print(2 ** -1, 2 ** 0.5, (-8) ** 2, -2 ** 2)
print(10 ** -2, 4 ** 0.5, 0 ** 0)
print(2.0 ** 3, 3 ** 2.0)
# %% power_right_assoc
print(2 ** 3 ** 2)
# %% unary_ops
x = 5
print(-x, +x, --x, -(-x), ~x, ~-1, not x, not 0)
# %% bitwise_ops
print(6 & 3, 6 | 3, 6 ^ 3, 1 << 4, 256 >> 3, -16 >> 2)
print(~0, ~5, -1 & 0xff)
# %% mixed_int_float
print(1 + 2.0, 3 * 1.5, 10 - 0.5, 7 // 2.0, 7 % 2.5)
# %% bool_arith
print(True + True, True * 10, False - 1, True / 2)
# %% precedence
print(2 + 3 * 4, (2 + 3) * 4, 2 * 3 ** 2, -3 ** 2, 10 - 4 - 3, 100 / 10 / 5)
print(1 + 2 << 1, 1 | 2 & 3, 5 & 3 == 1)
# %% augmented_assign_all
x = 10
x += 5; print(x)
x -= 3; print(x)
x *= 2; print(x)
x /= 4; print(x)
x //= 2; print(x)
x %= 2; print(x)
y = 3
y **= 3; print(y)
y //= 4; print(y)
y %= 4; print(y)
# %% augmented_bitwise
z = 12
z &= 10; print(z)
z |= 1; print(z)
z ^= 3; print(z)
z <<= 2; print(z)
z >>= 1; print(z)
# %% augmented_on_list_and_str
xs = [1]
xs += [2, 3]
print(xs)
s = "ab"
s += "cd"
s *= 2
print(s)
# %% comparisons
print(1 < 2, 2 <= 2, 3 > 4, 3 >= 3, 1 == 1.0, 1 != 2)
print("a" < "b", "abc" < "abd", "Z" < "a", [1, 2] < [1, 3], (1, 2) == (1, 2))
# %% chained_comparisons
x = 5
print(1 < x < 10, 1 < x > 10, 0 <= x <= 5 < 6, 1 == 1 == 1, 3 > 2 > 1)
# %% chained_comparison_evaluates_once
def f():
    print("called")
    return 5
print(1 < f() < 10)
# %% int_large_within_64bit
print(2 ** 62, 9223372036854775807, -9223372036854775807 - 1)
print(2 ** 40 * 3, 123456789 * 987654321)
# %% divmod_like
a, b = 17, 5
print(a // b, a % b, (a // b) * b + a % b)
# %% float_arith
print(0.1 + 0.2, 1.1 * 3, 1 - 0.9, 3.0 * 0.1)
# %% float_int_equality_hash
print(1 == 1.0, 0 == -0.0, 2.5 == 5 / 2)
