def f():
    yield 1
x = yield 2
