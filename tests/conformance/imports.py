# %% import_math
import math
print(math.pi)
# %% from_import
from math import sqrt
print(sqrt(16))
# %% from_import_multiple
from math import floor, ceil, pi
print(floor(pi), ceil(pi))
# %% import_as
import math as m
print(m.sqrt(2))
# %% from_import_as
from math import sqrt as square_root
print(square_root(9))
# %% import_time_no_values_printed
import time
t0 = time.time()
t1 = time.perf_counter()
s = 0
for i in range(1000):
    s += i
elapsed = time.perf_counter() - t1
print(s, elapsed >= 0, type(t0).__name__, time.time() >= t0)
# %% import_random
import random
print(type(random.random()).__name__)
# %% import_unknown
import numpy as np
# %% import_inside_function
def f():
    import math
    return math.floor(2.7)
print(f())
# %% module_type_name
import math
print(type(math).__name__)
# %% import_twice
import math
import math
print(math.e)
