class K(Missing):
    pass
