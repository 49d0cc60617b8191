print(f"{x!z}")
