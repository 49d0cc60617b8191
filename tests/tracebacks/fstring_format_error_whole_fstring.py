x = 5
print(f"a {x:z} b")
