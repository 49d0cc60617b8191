def f(d):
    del d["missing"]


f({})
