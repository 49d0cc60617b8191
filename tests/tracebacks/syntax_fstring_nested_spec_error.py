print(f"{x:{y+}}")
