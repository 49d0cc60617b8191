a = 2
b = 3
c = None
loss = a * b + c
print(loss)
