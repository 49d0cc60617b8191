try:
    raise ValueError("a") from KeyError("b")
except ValueError:
    pass
raise TypeError("t") from KeyError
