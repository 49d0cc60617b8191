def inverse(xs):
    return [1 / x for x in xs]


print(inverse([1, 2, 4]))
print(inverse([1, 0]))
