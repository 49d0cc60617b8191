for i in range(3):
    if i == 2:
        print(10 // (i - 2))
    else:
        print(i)
