x = 1
print(f"abc {x y} d")
