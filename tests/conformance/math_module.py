# %% constants
import math
print(math.pi, math.e, math.inf, -math.inf, math.nan, math.tau)
# %% sqrt_exp_log
import math
print(math.sqrt(16), math.sqrt(2), math.exp(0), math.exp(1), math.log(math.e), math.log(1))
print(math.log(8, 2), math.log(100, 10), math.log10(1000), math.log2(1024), math.log(10))
# %% floor_ceil
import math
print(math.floor(2.7), math.floor(-2.7), math.ceil(2.1), math.ceil(-2.1), math.floor(5), type(math.floor(2.5)))
# %% isclose
import math
print(math.isclose(0.1 + 0.2, 0.3), math.isclose(1.0, 1.1), math.isclose(1.0, 1.05, rel_tol=0.1), math.isclose(0.0, 1e-12), math.isclose(0.0, 1e-12, abs_tol=1e-9))
# %% isnan_isinf
import math
print(math.isnan(math.nan), math.isnan(1.0), math.isinf(math.inf), math.isinf(-math.inf), math.isinf(1e308), math.isfinite(1.0))
# %% fabs_pow
import math
print(math.fabs(-3), math.pow(2, 10), math.pow(2, 0.5), math.pow(4, -1))
# %% trig_and_hyperbolic
import math
print(math.sin(0), math.cos(0), math.tanh(0.5), math.tanh(100), math.atan(1) * 4)
print(round(math.sin(math.pi / 6), 10), math.cos(math.pi))
# %% sigmoid_by_hand
import math
def sigmoid(x):
    return 1 / (1 + math.exp(-x))
print(sigmoid(0), sigmoid(2), sigmoid(-2))
# %% softmax_by_hand
import math
xs = [1.0, 2.0, 3.0]
exps = [math.exp(x) for x in xs]
s = sum(exps)
print([e / s for e in exps])
# %% floor_of_large_float_free
import math
print(math.floor(1e15 + 0.5), math.ceil(-0.5))
# %% gcd_factorial_free
import math
print(math.factorial(10), math.gcd(12, 18), math.prod([1, 2, 3, 4]))
# %% math_inf_comparisons
import math
print(math.inf > 10 ** 18, -math.inf < -1e308, math.inf == float("inf"))
# %% exp_overflow
import math
math.exp(1000)
# %% sqrt_of_int_returns_float
import math
print(math.sqrt(4), type(math.sqrt(4)).__name__)
