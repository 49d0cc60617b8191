class Base:
    def __init_subclass__(cls):
        raise TypeError("sub")

@undefined_deco
class K(Base):
    x = 1 / 0
