shape = (3, 10)
assert len(shape) == 2
assert shape[0] == shape[1], "expected a square matrix"
