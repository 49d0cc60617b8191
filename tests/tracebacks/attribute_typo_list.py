losses = []
losses.apend(0.5)
