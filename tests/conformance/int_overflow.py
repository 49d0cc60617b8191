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
# %% range_past_i64_max_items
r = range(-(2**62) * 2, 2**62)
for x in r:
    print(x)
    break
print(next(iter(r)), r[0], r[5], r[-1], bool(r))
print([x for x, _ in zip(r, "abc")])
print(2**62 - 1 in r, 2**62 in r, -(2**62) * 2 in r)
print(r == range(-(2**62) * 2, 2**62), r[9223372036854775807], r[-(2**62) * 2])
print(len(r))
# %% range_index_past_its_end
r = range(-(2**62) * 2, 2**62, 2**61)
print(r[6])
# %% range_item_and_membership_at_the_edges
r = range(2**62, -(2**62) * 2, -(2**61))
print(len(r), r[0], r[-1], r[-6], -(2**62) * 2 in r, -(2**62) * 2 + 2**61 in r, 2**62 in r)
print(list(r)[::2], r[1:3], r[::-2])
