text = "12x"
n = int(text)
