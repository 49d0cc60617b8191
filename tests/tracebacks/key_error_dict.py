config = {"lr": 0.01, "epochs": 10}
batch = config["batch_size"]
