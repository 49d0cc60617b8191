data = {"a": 1}
try:
    value = data["b"]
except KeyError:
    value = int("not a number")
