x = [foo f"a{1}"]
