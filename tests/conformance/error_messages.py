# %% name_error
print(undefined_name)
# %% name_error_typo
learning_rate = 0.1
print(learning_rat)
# %% name_error_in_function
def f():
    return missing + 1
f()
# %% unbound_local
x = 1
def f():
    print(x)
    x = 2
f()
# %% unbound_local_augmented
total = 0
def add():
    total += 1
add()
# %% type_error_add_int_str
1 + "a"
# %% type_error_add_str_int
"a" + 1
# %% type_error_concat_list_tuple
[1] + (2,)
# %% type_error_add_none
x = None
x + 1
# %% type_error_mul_str_float
"ab" * 2.5
# %% type_error_sub_str
"abc" - "a"
# %% type_error_compare
1 < "2"
# %% type_error_compare_none
None > 0
# %% type_error_not_callable_int
x = 5
x()
# %% type_error_not_callable_str
"hello"()
# %% type_error_too_many_positional
def f(a):
    return a
f(1, 2)
# %% type_error_too_many_positional_defaults
def f(a, b=1):
    return a
f(1, 2, 3)
# %% type_error_missing_one
def f(a, b):
    return a
f(1)
# %% type_error_missing_two
def f(a, b, c):
    return a
f(1)
# %% type_error_unexpected_keyword
def f(a):
    return a
f(a=1, b=2)
# %% type_error_multiple_values
def f(a, b):
    return a
f(1, a=2)
# %% type_error_method_args
class C:
    def m(self, x):
        return x
C().m(1, 2)
# %% type_error_init_args
class P:
    def __init__(self, x, y):
        self.x = x
P(1)
# %% type_error_lambda_args
f = lambda x: x
f()
# %% type_error_not_iterable
for x in 5:
    pass
# %% type_error_unpack_non_iterable
a, b = 3
# %% type_error_not_subscriptable_int
x = 5
x[0]
# %% type_error_not_subscriptable_none
None[0]
# %% type_error_not_subscriptable_function
def f():
    pass
f[0]
# %% type_error_unhashable_list_key
d = {}
d[[1, 2]] = 3
# %% type_error_unhashable_in_set
s = {[1]}
# %% type_error_unhashable_dict
{{}: 1}
# %% type_error_str_join_ints
", ".join([1, 2])
# %% type_error_len_int
len(5)
# %% type_error_len_none
len(None)
# %% type_error_item_assign_str
s = "abc"
s[0] = "x"
# %% type_error_item_assign_tuple
t = (1, 2)
t[0] = 5
# %% type_error_list_index_str
[1, 2]["0"]
# %% type_error_list_index_float
[1, 2][1.0]
# %% type_error_int_of_list
int([1])
# %% type_error_float_of_none
float(None)
# %% type_error_sum_strings
sum(["a", "b"])
# %% type_error_sort_mixed
sorted([3, "a", 1])
# %% type_error_unary_minus_str
-"x"
# %% type_error_bad_operand_unary_invert
~1.5
# %% type_error_isinstance_arg
isinstance(1, "int")
# %% type_error_builtin_arg_count
len([1], [2])
# %% type_error_min_of_int
min(5)
# %% value_error_format_spec_d_on_str
f"{'abc':d}"
# %% type_error_percent_not_enough
"%d %d" % (1,)
# %% type_error_percent_not_all
"%d" % (1, 2)
# %% type_error_percent_d_str
"%d" % "x"
# %% type_error_obj_add
class A:
    pass
A() + 1
# %% type_error_str_plus_float
"loss: " + 0.5
# %% attribute_error_list
[].foo
# %% attribute_error_method_typo
xs = []
xs.push(1)
# %% attribute_error_int
(5).real_part
# %% attribute_error_str
"abc".size
# %% attribute_error_none
x = None
x.shape
# %% attribute_error_instance
class Model:
    def __init__(self):
        self.w = 1
m = Model()
m.weights
# %% attribute_error_class
class Model:
    pass
Model.layers
# %% attribute_error_dict_attr
d = {'a': 1}
d.a
# %% attribute_error_module
import math
math.sqr(4)
# %% attribute_error_tuple_append
(1, 2).append(3)
# %% index_error_list
xs = [1, 2, 3]
xs[10]
# %% index_error_negative
[1][-2]
# %% index_error_tuple
(1, 2)[5]
# %% index_error_string
"abc"[3]
# %% index_error_assign
xs = [0]
xs[1] = 5
# %% index_error_pop_empty
[].pop()
# %% index_error_pop_index
[1, 2].pop(5)
# %% index_error_range
range(3)[3]
# %% key_error_str
d = {'a': 1}
d['b']
# %% key_error_int
{1: 'a'}[2]
# %% key_error_tuple
{}[(1, 2)]
# %% key_error_del
d = {}
del d['x']
# %% key_error_pop
{}.pop('k')
# %% key_error_set_remove
s = {1, 2}
s.remove(3)
# %% value_error_int_parse
int("x")
# %% value_error_int_parse_float_string
int("3.5")
# %% value_error_int_empty
int("")
# %% value_error_int_base16
int("fz", 16)
# %% value_error_float_parse
float("abc")
# %% value_error_list_remove
[1, 2].remove(3)
# %% value_error_list_index
[1, 2].index(5)
# %% value_error_str_index
"abc".index("z")
# %% value_error_unpack_too_many
a, b = [1, 2, 3]
# %% value_error_unpack_not_enough
a, b, c = (1, 2)
# %% value_error_unpack_in_for
for a, b in [(1, 2), (3,)]:
    pass
# %% value_error_max_empty
max([])
# %% value_error_min_empty
min([])
# %% value_error_range_step_zero
range(1, 5, 0)
# %% value_error_split_empty_sep
"a b".split("")
# %% value_error_math_domain
import math
math.sqrt(-1)
# %% value_error_math_log_zero
import math
math.log(0)
# %% zero_division_int
1 / 0
# %% zero_division_floordiv
5 // 0
# %% zero_division_modulo
5 % 0
# %% zero_division_float
1.0 / 0.0
# %% zero_division_float_floordiv
2.5 // 0
# %% zero_division_float_mod
2.5 % 0.0
# %% zero_division_power
0 ** -1
# %% zero_division_in_function
def mean(xs):
    return sum(xs) / len(xs)
mean([])
# %% assertion_no_message
assert 1 == 2
# %% assertion_with_message
x = -1
assert x >= 0, f"x must be non-negative, got {x}"
# %% assertion_with_non_str_message
assert False, 42
# %% stop_iteration_next
it = iter([])
next(it)
# %% stop_iteration_after_items
it = iter("ab")
next(it)
next(it)
next(it)
# %% runtime_error_raised
raise RuntimeError("CUDA out of memory (simulated)")
# %% not_implemented_raised
raise NotImplementedError
# %% module_not_found
import numpy
# %% module_not_found_from
from pandas import DataFrame
# %% user_exception_uncaught
class MyError(Exception):
    pass
raise MyError("custom message")
# %% user_exception_no_args
class Oops(Exception):
    pass
raise Oops
# %% user_exception_multiple_args
class E(Exception):
    pass
raise E("a", 1)
# %% exception_with_multiline_message
raise ValueError("line one\nline two")
# %% exception_with_empty_message
raise ValueError("")
# %% key_error_message_is_repr
raise KeyError("it's")
# %% keyboard_interrupt_uncaught
raise KeyboardInterrupt
# %% error_after_partial_output
for i in range(5):
    print(i, 10 // (3 - i))
# %% raise_non_exception
raise 5
# %% dict_changed_size
d = {'a': 1}
for k in d:
    d['b'] = 2
# %% type_error_next_on_list
next([1, 2])
# %% type_error_iter_int
iter(5)
# %% type_error_int_none
int(None)
# %% value_error_float_empty
float("")
# %% attribute_error_set_on_int
x = 5
x.label = "five"
# %% attribute_error_read_only_method
s = "abc"
s.upper = None
# %% type_error_star_non_iterable
def f(*a):
    return a
f(*5)
# %% type_error_double_star_non_mapping
def f(**k):
    return k
f(**[1])
# %% type_error_round_str
round("1.5")
# %% type_error_abs_str
abs("x")
# %% type_error_setattr_nonstr
class C:
    pass
setattr(C(), 1, 2)
# %% type_error_kwarg_to_builtin
len(obj=[1])
# %% type_error_call_none_method_result
xs = [3, 1, 2]
ys = xs.sort()
ys[0]
# %% type_error_dict_unpack_non_pair
dict([1, 2])
# %% value_error_dict_seq_len
dict(["abc"])
# %% type_error_bool_not_callable
flag = True
flag()
# %% type_error_method_missing_self_call
class M:
    def f(self):
        return 1
M.f()
# %% attribute_error_str_append
"abc".append("d")
# %% type_error_positional_only_builtin
sorted([1], lambda x: x)
