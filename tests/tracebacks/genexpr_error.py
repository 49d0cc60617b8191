data = [1, 2, 0]
print(sum(1 / x
          for x in data))
