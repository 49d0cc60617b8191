# %% pow_past_2_63
print(2 ** 64)
# %% mul_overflow
print(9223372036854775807 + 1)
# %% big_factorial
r = 1
for i in range(1, 26):
    r *= i
print(r)
# %% negative_overflow
print(-9223372036854775808 - 1)
# %% big_literal
print(123456789012345678901234567890)
# %% shift_overflow
print(1 << 70)
