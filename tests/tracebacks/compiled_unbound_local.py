def f(flag):
    if flag:
        y = 1
    return y + 1


print(f(True))
print(f(False))
