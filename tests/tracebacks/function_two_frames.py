def mean(xs):
    return sum(xs) / len(xs)

print(mean([1, 2, 3]))
print(mean([]))
