def load(d):
    try:
        return d["k"]
    except KeyError as e:
        raise ValueError("no k") from e
load({})
