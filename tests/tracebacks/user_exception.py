class ShapeError(Exception):
    pass

def matmul_shapes(a, b):
    if a[1] != b[0]:
        raise ShapeError(f"cannot multiply {a} by {b}")
    return (a[0], b[1])

print(matmul_shapes((2, 3), (3, 4)))
print(matmul_shapes((2, 3), (4, 5)))
