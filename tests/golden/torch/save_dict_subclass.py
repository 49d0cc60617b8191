# %% save_user_dict_subclass_round_trip
import torch
class Record(dict):
    def total(self):
        return sum(v.sum().item() for v in self.values())
r = Record(a=torch.ones(2), b=torch.arange(3.))
r.note = 'epoch 3'
torch.save(r, 'target/ds17_a.pt')
s = torch.load('target/ds17_a.pt', weights_only=False)
print(type(s).__name__, type(s) is Record, s, s.note, s.total())
print(s is r, isinstance(s, dict), list(s), torch.equal(s['b'], r['b']))

# %% save_user_dict_subclass_weights_only_refused
import torch
class Record(dict):
    pass
torch.save(Record(a=1), 'target/ds17_b.pt')
for kw in [{}, {'weights_only': True}, {'weights_only': None}]:
    try:
        torch.load('target/ds17_b.pt', **kw)
    except Exception as e:
        print(type(e).__name__, type(e).__module__)
        print(str(e))

# %% save_ordered_dict_round_trip
import torch
from collections import OrderedDict
o = OrderedDict([('z', 1), ('a', torch.zeros(2)), ('m', [1, 2])])
torch.save(o, 'target/ds17_c.pt')
p = torch.load('target/ds17_c.pt')
q = torch.load('target/ds17_c.pt', weights_only=False)
print(type(p).__name__, p, list(p.keys()))
print(type(q).__name__, list(q.items())[2])
o.move_to_end('z')
torch.save({'state': o}, 'target/ds17_c2.pt')
print(torch.load('target/ds17_c2.pt'))

# %% save_ordered_dict_subclass_and_counter
import torch
from collections import OrderedDict, Counter
class MyOD(OrderedDict):
    pass
torch.save(MyOD(x=1, y=torch.ones(1)), 'target/ds17_d.pt')
print(torch.load('target/ds17_d.pt', weights_only=False))
try:
    torch.load('target/ds17_d.pt')
except Exception as e:
    print(type(e).__name__, str(e).split('\n')[3])
c = Counter('abracadabra')
torch.save(c, 'target/ds17_e.pt')
print(torch.load('target/ds17_e.pt'), type(torch.load('target/ds17_e.pt', weights_only=False)).__name__)

# %% save_defaultdict
import torch
from collections import defaultdict
d = defaultdict(list)
d['a'].append(torch.ones(1))
torch.save(d, 'target/ds17_f.pt')
e = torch.load('target/ds17_f.pt', weights_only=False)
print(e, e.default_factory)
e['b'].append(2)
print(dict(e))
try:
    torch.load('target/ds17_f.pt')
except Exception as ex:
    print(type(ex).__name__, str(ex).split('\n')[3])

# %% save_dict_subclass_nested_and_state
import torch
class Meta(dict):
    pass
class Bag(dict):
    def __setitem__(self, k, v):
        super().__setitem__(k, v * 2)
m = Meta(lr=0.1)
m.tags = ['x', 'y']
b = Bag()
dict.__setitem__(b, 'w', 3)
torch.save({'meta': m, 'bag': b, 'list': [m]}, 'target/ds17_g.pt')
out = torch.load('target/ds17_g.pt', weights_only=False)
print(out, out['meta'].tags, type(out['list'][0]).__name__)
print(out['bag'], type(out['bag']).__name__)

# %% save_dict_subclass_setitem_before_state
import torch
class Counted(dict):
    def __init__(self, *a, **k):
        super().__init__(*a, **k)
        self.count = 0
    def __setitem__(self, k, v):
        self.count += 1
        super().__setitem__(k, v)
w = Counted(x=1)
w['y'] = 2
print(w.count)
torch.save(w, 'target/ds17_h.pt')
torch.load('target/ds17_h.pt', weights_only=False)

# %% save_dict_subclass_setstate
import torch
class S(dict):
    def __setstate__(self, state):
        print('setstate', sorted(state))
        for k, v in state.items():
            setattr(self, k, v)
        self.restored = True
s = S(k=1)
s.a = 5
torch.save(s, 'target/ds17_i.pt')
t = torch.load('target/ds17_i.pt', weights_only=False)
print(t, t.a, t.restored)
u = S(k=2)
torch.save(u, 'target/ds17_j.pt')
v = torch.load('target/ds17_j.pt', weights_only=False)
print(v, hasattr(v, 'restored'))

# %% save_local_class_refused
import torch
def make():
    class Local(dict):
        pass
    return Local(a=1)
try:
    torch.save(make(), 'target/ds17_k.pt')
except AttributeError as e:
    print(e)

# %% save_class_objects
import torch
class K:
    pass
torch.save({'types': [int, float, K]}, 'target/ds17_l.pt')
print(torch.load('target/ds17_l.pt', weights_only=False))
try:
    torch.load('target/ds17_l.pt')
except Exception as e:
    print(type(e).__name__, str(e).split('\n')[3])

# %% save_plain_object_and_safe_globals
import torch
class Config:
    def __init__(self, lr, layers):
        self.lr = lr
        self.layers = layers
cfg = Config(0.01, [64, 10])
torch.save({'cfg': cfg, 'w': torch.ones(2)}, 'target/ds17_sg1.pt')
try:
    torch.load('target/ds17_sg1.pt')
except Exception as e:
    print(type(e).__name__, 'Unsupported global: GLOBAL __main__.Config' in str(e))
# (PyTorch's own list holds a few internal classes too: only Config is looked for.)
print(Config in torch.serialization.get_safe_globals())
with torch.serialization.safe_globals([Config]):
    d = torch.load('target/ds17_sg1.pt')
    print(type(d['cfg']).__name__, d['cfg'].lr, d['cfg'].layers, d['w'], d['cfg'] is cfg)
    print(Config in torch.serialization.get_safe_globals())
print(Config in torch.serialization.get_safe_globals())
torch.serialization.add_safe_globals([Config])
torch.serialization.add_safe_globals([Config])
print(torch.load('target/ds17_sg1.pt')['cfg'].layers)
print(torch.serialization.get_safe_globals().count(Config))
torch.serialization.clear_safe_globals()
print(torch.serialization.get_safe_globals())
e = torch.serialization.load('target/ds17_sg1.pt', weights_only=False)
print(vars(e['cfg']))

# %% save_plain_object_setstate
import torch
class Counter2:
    def __init__(self):
        self.n = 5
    def __setstate__(self, state):
        self.n = state['n'] * 10
torch.save([Counter2(), Counter2()], 'target/ds17_sg2.pt')
xs = torch.load('target/ds17_sg2.pt', weights_only=False)
print([x.n for x in xs], xs[0] is xs[1])

# %% save_allowed_dict_subclass_still_refused
import torch
class Record(dict):
    pass
torch.save(Record(a=1), 'target/ds17_sg3.pt')
torch.save(Record(), 'target/ds17_sg4.pt')
with torch.serialization.safe_globals([Record]):
    try:
        torch.load('target/ds17_sg3.pt')
    except Exception as e:
        print(type(e).__name__)
        print(str(e))
    print(torch.load('target/ds17_sg4.pt'), type(torch.load('target/ds17_sg4.pt')).__name__)

# %% safe_globals_argument_errors
import torch
for bad in (None, 3):
    try:
        torch.serialization.add_safe_globals(bad)
    except TypeError as e:
        print(e)
class Slotted:
    __slots__ = ('x',)
s = Slotted()
s.x = 4
torch.save(s, 'target/ds17_sg5.pt')
print(torch.load('target/ds17_sg5.pt', weights_only=False).x)
