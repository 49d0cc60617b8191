x = [a if b c]
