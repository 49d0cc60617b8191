class Model:
    def __init__(self):
        self.weight = 1.0

m = Model()
print(m.weights)
