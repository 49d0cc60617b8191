# %% make_adder
def make_adder(n):
    def add(x):
        return x + n
    return add
add5 = make_adder(5)
add10 = make_adder(10)
print(add5(1), add10(1))
# %% counter_nonlocal
def make_counter():
    count = 0
    def inc():
        nonlocal count
        count += 1
        return count
    return inc
c = make_counter()
c()
c()
print(c())
c2 = make_counter()
print(c2())
# %% late_binding
fs = []
for i in range(3):
    fs.append(lambda: i)
print([f() for f in fs])
# %% default_arg_capture
fs = []
for i in range(3):
    fs.append(lambda i=i: i)
print([f() for f in fs])
# %% closure_sees_updates
def outer():
    x = 1
    def get():
        return x
    x = 2
    return get
print(outer()())
# %% closure_over_mutable
def make_acc():
    items = []
    def add(x):
        items.append(x)
        return items
    return add
a = make_acc()
a(1)
print(a(2))
# %% nested_three_levels
def a(x):
    def b(y):
        def c(z):
            return x + y + z
        return c
    return b
print(a(1)(2)(3))
# %% closure_in_class_method
class Scaler:
    def __init__(self, k):
        self.k = k
    def make(self):
        return lambda v: v * self.k
f = Scaler(3).make()
print(f(5))
