# %% literal_and_repr
d = {'a': 1, 'b': 2}
print(d, {}, {1: 'x', 2.5: None, (1, 2): [3]})
# %% get_set
d = {'a': 1}
d['b'] = 2
d['a'] = 10
print(d, d['a'], d.get('b'), d.get('z'), d.get('z', 0))
# %% insertion_order
d = {}
for k in ['z', 'a', 'm']:
    d[k] = len(d)
print(d, list(d))
# %% keys_values_items
d = {'x': 1, 'y': 2}
print(d.keys(), d.values(), d.items())
print(list(d.keys()), list(d.values()), list(d.items()))
for k, v in d.items():
    print(k, v)
# %% update
d = {'a': 1}
d.update({'b': 2, 'a': 0})
d.update(c=3)
d.update([('d', 4)])
print(d)
# %% pop_setdefault
d = {'a': 1, 'b': 2}
print(d.pop('a'), d)
print(d.pop('zz', 'default'), d)
print(d.setdefault('b', 99), d.setdefault('c', 3), d)
# %% copy_independent
a = {'k': [1]}
b = a.copy()
b['new'] = 1
b['k'].append(2)
print(a, b)
# %% in_operator_on_keys
d = {'a': 1}
print('a' in d, 1 in d, 'b' not in d)
# %% dict_constructor
print(dict(a=1, b=2), dict([('x', 1), ('y', 2)]), dict(zip('ab', [1, 2])), dict())
print(dict({'a': 1}, b=2))
# %% len_del
d = {'a': 1, 'b': 2, 'c': 3}
del d['b']
print(len(d), d)
# %% iteration_order_after_reassign
d = {'a': 1, 'b': 2}
d['a'] = 3
print(d)
del d['a']
d['a'] = 4
print(d)
# %% counting_pattern
counts = {}
for w in "the cat the dog the end".split():
    counts[w] = counts.get(w, 0) + 1
print(counts)
# %% equality
print({'a': 1, 'b': 2} == {'b': 2, 'a': 1}, {'a': 1} == {'a': 1.0})
# %% int_float_key_unify
d = {1: 'int'}
d[1.0] = 'float'
d[True] = 'bool'
print(d)
# %% nested_dicts
cfg = {'model': {'layers': [3, 10, 1]}, 'lr': 0.01}
print(cfg['model']['layers'][1], cfg)
# %% sorted_items
d = {'b': 2, 'a': 3, 'c': 1}
print(sorted(d), sorted(d.items()), sorted(d, key=d.get))
# %% values_sum
print(sum({'a': 1, 'b': 2}.values()))
# %% str_keys_repr
print({"it's": 1, 'q"': 2})

# %% table_growth_removal_and_order
# Growth, removal from the middle and the end, reinsertion and popitem: order and lookups hold.
d = {}
for i in range(3000):
    d[(i * 7919) % 3001] = i
for k in list(d)[::3]:
    del d[k]
for i in range(0, 3000, 5):
    d[-i] = i
print(len(d), list(d)[:6], list(d)[-4:])
print(sum(d[k] for k in d if k % 2), d.get(7919 % 3001), d.get(3000))
for _ in range(10):
    d.popitem()
print(len(d), list(d.items())[-2:])
d2 = d.copy()
del d2[list(d2)[5]]
print(d == d2, len(d2), d2.setdefault(-5, 99), d2.setdefault(123456, "new"), list(d2)[-1])
m = {1: "int", 1.0: "float", True: "bool", 2: "two"}
m.pop(2)
m[2.0] = "two again"
print(m, {1.5: 1, 3: 2}.get(1.5))


class K:
    def __init__(self, v):
        self.v = v

    def __hash__(self):
        return self.v % 4

    def __eq__(self, other):
        return isinstance(other, K) and self.v == other.v


u = {K(i): i for i in range(40)}
for i in range(0, 40, 3):
    del u[K(i)]
print(len(u), [u[K(i)] for i in (1, 2, 4, 38)], K(3) in u, K(39) in u)
s = {}
for i in range(2000):
    s[str(i)] = i
    if i % 3 == 0 and str(i // 2) in s:
        del s[str(i // 2)]
print(len(s), list(s)[:5], s["1999"], "10" in s)
