# %% try_except_basic
try:
    x = 1 / 0
except ZeroDivisionError:
    print("caught zero division")
print("after")
# %% except_as_message
try:
    int("abc")
except ValueError as e:
    print("error:", e)
# %% except_tuple
for bad in [lambda: [][0], lambda: {}['k'], lambda: 1 / 0]:
    try:
        bad()
    except (IndexError, KeyError) as e:
        print("lookup:", type(e).__name__)
    except ZeroDivisionError as e:
        print("math:", e)
# %% try_else_finally
def run(x):
    try:
        r = 10 / x
    except ZeroDivisionError:
        print("div by zero")
    else:
        print("ok", r)
    finally:
        print("finally")
run(2)
run(0)
# %% finally_runs_on_return
def f():
    try:
        return "from try"
    finally:
        print("cleanup")
print(f())
# %% finally_overrides_return
def f():
    try:
        return 1
    finally:
        return 2
print(f())
# %% raise_and_catch_custom
class TrainingError(Exception):
    pass
try:
    raise TrainingError("loss is nan")
except TrainingError as e:
    print(type(e).__name__, str(e), e.args)
# %% reraise_bare
def f():
    try:
        [][1]
    except IndexError:
        print("logging, then re-raise")
        raise
try:
    f()
except IndexError as e:
    print("outer got:", e)
# %% exception_attributes
e = ValueError("bad value", 42)
print(e.args, str(e), repr(e))
e1 = ValueError("one")
print(repr(e1), e1.args)
e0 = ValueError()
print(repr(e0), repr(str(e0)), e0.args)
# %% key_error_str_has_quotes
try:
    {'a': 1}['missing']
except KeyError as e:
    print(e, repr(e), e.args, str(e))
# %% catch_base_exception_class
try:
    raise RuntimeError("boom")
except Exception as e:
    print(type(e).__name__, isinstance(e, RuntimeError), e)
# %% except_order_first_match
try:
    raise KeyError("k")
except Exception:
    print("Exception handler")
except KeyError:
    print("KeyError handler")
# %% nested_try
try:
    try:
        raise ValueError("inner")
    except TypeError:
        print("wrong handler")
    finally:
        print("inner finally")
except ValueError as e:
    print("outer caught", e)
# %% raise_class_not_instance
try:
    raise ValueError
except ValueError as e:
    print(repr(e), repr(str(e)))
# %% exception_in_except_handled
try:
    try:
        1 / 0
    except ZeroDivisionError:
        raise ValueError("converted")
except ValueError as e:
    print("got", e)
# %% assert_pass_and_fail
assert 1 + 1 == 2
assert True, "never shown"
try:
    assert 1 > 2, "one is not greater"
except AssertionError as e:
    print("assert:", e)
try:
    assert False
except AssertionError as e:
    print("bare assert:", repr(e), e.args)
# %% uncaught_custom
class ShapeError(Exception):
    pass
print("before")
raise ShapeError("expected (3, 10), got (10, 3)")
# %% uncaught_raise_with_no_message
raise RuntimeError
# %% uncaught_after_output
print("step 1")
print("step 2")
raise ValueError("stopped at step 3")
# %% stop_iteration_caught
it = iter([1])
print(next(it))
try:
    next(it)
except StopIteration:
    print("exhausted")
# %% keyboard_interrupt_not_exception
try:
    try:
        raise KeyboardInterrupt
    except Exception:
        print("wrong: Exception caught it")
except KeyboardInterrupt:
    print("KeyboardInterrupt is not an Exception")
print(isinstance(KeyboardInterrupt(), Exception))
# %% not_implemented_error
try:
    raise NotImplementedError("todo")
except NotImplementedError as e:
    print(e, isinstance(e, RuntimeError))
# %% module_not_found_caught
try:
    import numpy
except ModuleNotFoundError as e:
    print("no:", e)
# %% exception_variable_cleared
try:
    raise ValueError("x")
except ValueError as err:
    pass
try:
    print(err)
except NameError as e:
    print("NameError:", e)
# %% custom_exception_with_init
class CodeError(Exception):
    def __init__(self, code):
        super().__init__(f"code {code}")
        self.code = code
try:
    raise CodeError(404)
except CodeError as e:
    print(e, e.code, e.args)
# %% loop_continues_after_errors
vals = ["1", "x", "3", ""]
total = 0
for v in vals:
    try:
        total += int(v)
    except ValueError as e:
        print("skip:", e)
print(total)
# %% finally_after_break
for i in range(3):
    try:
        if i == 1:
            break
        print("body", i)
    finally:
        print("finally", i)
# %% raise_in_function_propagates
def check(x):
    if x < 0:
        raise ValueError(f"negative: {x}")
    return x
def wrapper(x):
    return check(x) * 2
print(wrapper(3))
try:
    wrapper(-1)
except ValueError as e:
    print("caught", e)
# %% except_exception_catches_all_common
errs = [TypeError("t"), ValueError("v"), NameError("n"), AttributeError("a"),
        IndexError("i"), KeyError("k"), ZeroDivisionError("z"), AssertionError("as"),
        NotImplementedError("ni"), StopIteration("s"), RuntimeError("r")]
for err in errs:
    try:
        raise err
    except Exception as e:
        print(type(e).__name__, str(e))
# %% type_of_exception_printed
try:
    1 / 0
except ZeroDivisionError as e:
    print(type(e), type(e).__name__, e.args)
class MyErr(Exception):
    pass
print(MyErr, type(MyErr("m")))
# %% repr_of_various_exceptions
print(repr(KeyError('k')), repr(RuntimeError("a", "b")), repr(StopIteration()), repr(NotImplementedError("x")))
print(str(KeyError(1)), str(ValueError(1)), str(ValueError("a", 2)), str(Exception()))
# %% raise_instance_stored_in_variable
err = ValueError("prepared")
try:
    raise err
except ValueError as e:
    print(e is err, e)
# %% try_except_in_loop_with_continue
for v in [1, 0, 2]:
    try:
        r = 6 // v
    except ZeroDivisionError:
        print("skip zero")
        continue
    finally:
        print("checked", v)
    print("result", r)
# %% except_without_type
try:
    undefined_thing
except:
    print("bare except caught it")
# %% exception_chaining_attributes
try:
    try:
        1 / 0
    except ZeroDivisionError:
        raise ValueError("v")
except ValueError as e:
    print(repr(e.__context__), e.__cause__, e.__suppress_context__, e.__dict__)
try:
    raise ValueError("a") from KeyError("b")
except ValueError as e:
    print(repr(e.__cause__), repr(e.__context__), e.__suppress_context__)
try:
    try:
        {}["k"]
    except KeyError as k:
        raise TypeError("t") from None
except TypeError as e:
    print(e.__cause__, repr(e.__context__), e.__suppress_context__)
x = ValueError("never raised")
print(x.__cause__, x.__context__, x.__suppress_context__)
class E(Exception):
    pass
try:
    raise E("e") from ValueError
except E as e:
    print(type(e.__cause__).__name__, e.__cause__.args)
# %% builtin_exception_instances_have_a_dict
e = ValueError("x")
e.note = 1
print(e.__dict__, e.note)
class S:
    __slots__ = ("a",)
try:
    S().b = 1
except AttributeError as err:
    print(err)
class SE(Exception):
    __slots__ = ("a",)
x = SE()
x.b = 2
print(x.__dict__)
try:
    raise ValueError("v")
except ValueError as e:
    print(e.__dict__)
print(ValueError("x").__dict__)
