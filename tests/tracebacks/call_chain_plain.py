def inner(x):
    return x.upper()

def middle(x):
    return inner(x) + "!"

def outer():
    return middle(42)

outer()
