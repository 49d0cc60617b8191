# %% format_builtin_free_via_method
print("{:d}".format(42), "{:5.1f}".format(2.25), "{:<4}|".format(7))
# %% rounding_half_even_in_format
print(f"{0.125:.2f} {0.375:.2f} {2.675:.2f} {1.5:.0f} {0.5:.0f}")
# %% fill_and_align_numbers
print(f"{-42:>8} {-42:<8}| {-42:=8} {42:=+8}")
# %% zero_pad_negative
print(f"{-7:04d} {7:04d} {-1.5:06.2f}")
# %% comma_with_width
print(f"{1234567:>12,} {-9876543:,}")
# %% precision_on_strings
print(f"{'abcdef':.3} {'abcdef':>8.2}|")
# %% float_default_repr_in_format
print(f"{0.1 + 0.2} {1e16} {1/3}")
print("{}".format(1e-5))
# %% alternate_forms
print(f"{10:#b} {10:#o} {255:#X}")
# %% e_format_precision
print(f"{123456.0:.3e} {0.0:e} {-1.5:.1e}")
# %% percent_format_spec
print(f"{0.5:.2%} {0.12345:.3%} {2:%}")
# %% g_format_precision
print(f"{3.14159:.3g} {123456789.0:.3g} {0.000123456:.2g}")
# %% inf_nan_format
print(f"{float('inf'):.2f} {float('-inf'):>6} {float('nan'):.3f}")
# %% zero_width_and_large_width
print(f"[{'x':0}] [{'x':10}]")
print(f"[{5:10}]")
# %% center_odd_padding
print(f"[{'ab':^5}] [{'abc':^6}] [{1:^4}]")
# %% format_bool_as_int
print(f"{True:d} {False:>3}")
