print("start")
print(undefined_variable)
