def make_scaler(k):
    def scale(x):
        return x * k + offset
    return scale

f = make_scaler(2)
f(3)
