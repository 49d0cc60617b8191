def check_lr(lr):
    if lr <= 0:
        raise ValueError(f"learning rate must be positive, got {lr}")
    return lr

check_lr(0.1)
check_lr(-1)
