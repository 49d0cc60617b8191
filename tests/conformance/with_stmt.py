# %% basic_context_manager
class CM:
    def __enter__(self):
        print("enter")
        return "value"
    def __exit__(self, exc_type, exc, tb):
        print("exit", exc_type)
        return False
with CM() as v:
    print("body", v)
print("after")
# %% enter_returns_self
class Timer:
    def __enter__(self):
        self.started = True
        return self
    def __exit__(self, *args):
        self.done = True
with Timer() as t:
    print(t.started)
print(t.done)
# %% no_as_clause
class CM:
    def __enter__(self):
        print("in")
    def __exit__(self, a, b, c):
        print("out")
with CM():
    print("body")
# %% multiple_managers
class Named:
    def __init__(self, n):
        self.n = n
    def __enter__(self):
        print("enter", self.n)
        return self.n
    def __exit__(self, a, b, c):
        print("exit", self.n)
with Named(1) as a, Named(2) as b:
    print("body", a, b)
# %% exit_sees_exception_and_propagates
class CM:
    def __enter__(self):
        return self
    def __exit__(self, exc_type, exc, tb):
        print("exit got", exc_type.__name__, exc)
        return False
try:
    with CM():
        raise ValueError("inside")
except ValueError as e:
    print("propagated:", e)
# %% exit_suppresses_exception
class Suppress:
    def __enter__(self):
        return self
    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None:
            print("suppressing", exc_type.__name__)
        return True
with Suppress():
    print("before")
    1 / 0
    print("not reached")
print("continues")
# %% exit_runs_on_return
class CM:
    def __enter__(self):
        return self
    def __exit__(self, *a):
        print("exit")
def f():
    with CM():
        return "returned"
print(f())
# %% exit_runs_on_break
class CM:
    def __enter__(self):
        return self
    def __exit__(self, *a):
        print("exit")
for i in range(3):
    with CM():
        if i == 1:
            break
        print("i", i)
# %% no_grad_like_flag
class NoGrad:
    enabled = True
    def __enter__(self):
        self.prev = NoGrad.enabled
        NoGrad.enabled = False
    def __exit__(self, *a):
        NoGrad.enabled = self.prev
print(NoGrad.enabled)
with NoGrad():
    print(NoGrad.enabled)
print(NoGrad.enabled)
# %% uncaught_through_with
class CM:
    def __enter__(self):
        return self
    def __exit__(self, *a):
        print("cleanup")
with CM():
    raise RuntimeError("fails inside with")
# %% exit_args_none_on_success
class CM:
    def __enter__(self):
        return self
    def __exit__(self, t, v, tb):
        print(t, v, tb)
with CM():
    pass
# %% mixed_as_and_plain
class Named:
    def __init__(self, n):
        self.n = n
    def __enter__(self):
        print("enter", self.n)
        return self
    def __exit__(self, a, b, c):
        print("exit", self.n)
with Named("a") as a, Named("b"):
    print("body", a.n)
# %% exit_suppress_only_some
class IgnoreKeyErrors:
    def __enter__(self):
        return self
    def __exit__(self, t, v, tb):
        return t is KeyError
with IgnoreKeyErrors():
    {}["x"]
print("KeyError suppressed")
with IgnoreKeyErrors():
    [][0]
