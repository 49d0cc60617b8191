grid = {"row": [1, 2, 3]}
cell = grid["row"][5]
