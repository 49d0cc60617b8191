class Layer:
    def __init__(self, n_in, n_out):
        self.shape = (n_in, n_out)

layer = Layer(3)
