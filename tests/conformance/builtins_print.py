# %% print_default
print("a", 1, 2.5, None, True)
# %% print_sep_end
print("a", "b", sep="")
print("a", "b", sep=" | ")
print("x", end="")
print("y", end="!\n")
print(1, 2, 3, sep=", ", end=".\n")
# %% print_empty
print()
print("")
print("after blanks")
# %% print_containers_use_repr
print(["a", 1], ("b",), {"k": "v"}, "top")
# %% print_sep_none
print(1, 2, sep=None, end=None)
# %% print_multiline_string
print("one\ntwo")
