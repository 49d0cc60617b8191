class R:
    def __repr__(self):
        return 5
print(f"x {R()!r}")
