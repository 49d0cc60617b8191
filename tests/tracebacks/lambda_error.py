scale = lambda v: v * factor
print(scale(2))
