# %% basic
print("%d items" % 5)
print("%s and %s" % ("a", "b"))
print("%r" % "q")
# %% floats
print("%f" % 3.14159, "%.2f" % 3.14159, "%8.3f|" % 2.5, "%-8.3f|" % 2.5)
# %% ints_padding
print("%5d|%-5d|%05d" % (42, 42, 42))
# %% exponent_and_general
print("%e" % 12345.678, "%.1e" % 0.00042, "%g" % 0.0001, "%g" % 1234567.0)
# %% hex
print("%x %X %o" % (255, 255, 8))
# %% percent_literal
print("%d%%" % 50)
# %% dict_mapping
print("%(name)s is %(age)d" % {"name": "Bo", "age": 7})
# %% single_tuple
print("%s" % (1,))
print("%s" % [1, 2])
# %% mixed
epoch, loss = 3, 0.04567
print("epoch %d loss %.4f" % (epoch, loss))
# %% s_with_numbers
print("%s %s %s" % (1.5, None, True))
# %% width_on_strings
print("[%10s][%-10s]" % ("right", "left"))
# %% int_formats_of_floats
print("%d" % 3.99, "%i" % -2.5)
