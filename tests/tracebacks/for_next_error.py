class It:
    def __iter__(self):
        return self
    def __next__(self):
        return 1 // 0
def use():
    for v in It():
        pass
use()
