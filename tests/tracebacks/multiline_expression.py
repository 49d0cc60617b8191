a = 1
b = "two"
total = (a +
         b)
