total = 10
count = 0
avg = total / count
