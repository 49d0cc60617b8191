print(f"a}b")
