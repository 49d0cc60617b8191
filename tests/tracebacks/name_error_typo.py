learning_rate = 0.01
step = learning_rat * 2
