# %% nan_found_by_identity
x = float('nan')
l = [1, x, x]
print(x == x, [x] == [x], x in l, l.count(x), l.index(x), (x, 2).count(x), (2, x).index(x))
l.remove(x)
print(len(l))

# %% eq_class_not_asked_about_itself
class E:
    def __eq__(self, o):
        print('eq called')
        return False
e = E()
print([e].count(e), [e].index(e), (e,).count(e), e in [e], [e] == [e])
print([1, e].count(e))
