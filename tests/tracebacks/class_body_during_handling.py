class K:
    try:
        1 / 0
    except ZeroDivisionError:
        [][1]
