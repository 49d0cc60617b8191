def f():
    try:
        1 / 0
    except ZeroDivisionError as e:
        try:
            {}["x"]
        except KeyError:
            raise ValueError("v") from e
f()
