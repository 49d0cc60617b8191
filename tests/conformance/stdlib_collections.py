# %% defaultdict_int
from collections import defaultdict
d = defaultdict(int)
for w in "a b a c b a".split():
    d[w] += 1
print(d)
print(d['zz'], len(d))
# %% defaultdict_list
from collections import defaultdict
g = defaultdict(list)
for k, v in [('a', 1), ('b', 2), ('a', 3)]:
    g[k].append(v)
print(g, dict(g))
# %% defaultdict_no_factory
from collections import defaultdict
d = defaultdict()
d['x'] = 1
print(d)
print(d['y'])
# %% defaultdict_lambda_get
from collections import defaultdict
d = defaultdict(lambda: 'n/a')
print(d['q'], d.get('r'), 'q' in d, 'r' in d)
# %% defaultdict_items_sorted
from collections import defaultdict
d = defaultdict(set)
d['b'].add(1)
d['a'].add(2)
print(sorted(d.items()), list(d.keys()))
# %% defaultdict_bad_factory
from collections import defaultdict
defaultdict(3)
# %% counter_string
from collections import Counter
c = Counter("abracadabra")
print(c)
# %% counter_most_common
from collections import Counter
c = Counter("abracadabra")
print(c.most_common(2), c.most_common()[-1])
# %% counter_missing_is_zero
from collections import Counter
c = Counter(['x', 'y', 'x'])
print(c['z'], c['x'], len(c))
# %% counter_kwargs_total
from collections import Counter
c = Counter(a=3, b=1)
print(c, c.total())
# %% counter_add_sub
from collections import Counter
print(Counter(a=3, b=1) + Counter(a=1, c=2))
print(Counter(a=3, b=2) - Counter(a=5, b=1))
# %% counter_or_and
from collections import Counter
print(Counter(a=3, b=1) | Counter(a=1, b=2), Counter(a=3, b=1) & Counter(a=1, b=2))
# %% counter_update_subtract
from collections import Counter
c = Counter('aab')
c.update('abc')
print(c)
c.subtract({'a': 4})
print(c)
# %% counter_elements
from collections import Counter
print(sorted(Counter(a=2, b=1).elements()))
# %% counter_empty
from collections import Counter
print(Counter(), Counter() == Counter())
# %% counter_words
from collections import Counter
words = "the cat and the hat and the bat".split()
for w, n in Counter(words).most_common(3):
    print(w, n)
# %% namedtuple_basic
from collections import namedtuple
Point = namedtuple('Point', ['x', 'y'])
p = Point(1, y=2)
print(p, p.x, p[1], len(p))
# %% namedtuple_string_fields
from collections import namedtuple
Row = namedtuple('Row', 'name age, city')
r = Row('ann', 31, 'oslo')
print(r, Row._fields)
# %% namedtuple_unpack_iter
from collections import namedtuple
Point = namedtuple('Point', 'x y')
a, b = Point(3, 4)
print(a, b, list(Point(5, 6)), tuple(Point(7, 8)))
# %% namedtuple_asdict_replace
from collections import namedtuple
Point = namedtuple('Point', 'x y')
p = Point(1, 2)
print(p._asdict(), p._replace(y=9), p)
# %% namedtuple_eq_tuple
from collections import namedtuple
Point = namedtuple('Point', 'x y')
print(Point(1, 2) == (1, 2), Point(1, 2) == Point(1, 2), Point(1, 2) == Point(2, 1))
# %% namedtuple_defaults
from collections import namedtuple
Cfg = namedtuple('Cfg', ['lr', 'epochs', 'seed'], defaults=[10, 0])
print(Cfg(0.1), Cfg(0.1, seed=3))
# %% namedtuple_type_name
from collections import namedtuple
Point = namedtuple('Point', 'x y')
p = Point(1, 2)
print(type(p).__name__, Point.__name__, isinstance(p, Point))
# %% namedtuple_missing_arg
from collections import namedtuple
Point = namedtuple('Point', 'x y')
Point(1)
# %% namedtuple_immutable
from collections import namedtuple
Point = namedtuple('Point', 'x y')
p = Point(1, 2)
try:
    p.x = 5
except AttributeError as e:
    print('AttributeError', e)
# %% namedtuple_bad_field
from collections import namedtuple
namedtuple('P', ['x', '_y'])
# %% namedtuple_sort_key
from collections import namedtuple
S = namedtuple('S', 'name score')
rows = [S('b', 2), S('a', 3), S('c', 1)]
print(sorted(rows, key=lambda s: s.score))
print(max(rows, key=lambda s: s.score).name)
# %% namedtuple_make
from collections import namedtuple
Point = namedtuple('Point', 'x y')
print(Point._make([4, 5]))
# %% deque_basic
from collections import deque
q = deque([1, 2, 3])
q.append(4)
q.appendleft(0)
print(q, len(q))
print(q.popleft(), q.pop(), q)
# %% deque_maxlen
from collections import deque
q = deque(maxlen=3)
for i in range(5):
    q.append(i)
print(q, q.maxlen)
q.appendleft(9)
print(q)
# %% deque_rotate
from collections import deque
q = deque(range(5))
q.rotate(2)
print(q)
q.rotate(-3)
print(q)
# %% deque_extend
from collections import deque
q = deque('ab')
q.extend('cd')
q.extendleft('xy')
print(q, list(reversed(q)))
# %% deque_index_contains
from collections import deque
q = deque([10, 20, 30])
print(q[0], q[-1], 20 in q, q.index(30), q.count(10))
# %% deque_pop_empty
from collections import deque
deque().pop()
# %% deque_sliding_window
from collections import deque
window = deque(maxlen=3)
for x in [1, 5, 2, 8, 3]:
    window.append(x)
    print(sum(window) / len(window))
# %% deque_bfs
from collections import deque
graph = {'a': ['b', 'c'], 'b': ['d'], 'c': ['d'], 'd': []}
seen, order, todo = {'a'}, [], deque(['a'])
while todo:
    n = todo.popleft()
    order.append(n)
    for m in graph[n]:
        if m not in seen:
            seen.add(m)
            todo.append(m)
print(order)
# %% ordereddict_move_to_end
from collections import OrderedDict
d = OrderedDict(a=1, b=2, c=3)
d.move_to_end('a')
print(d, list(d))
d.move_to_end('c', last=False)
print(d.popitem(), d)
# %% import_collections_module
import collections
print(collections.Counter('aab')['a'], collections.deque([1]))
# %% type_names
from collections import Counter, deque, defaultdict, OrderedDict, namedtuple
print(type(Counter()), type(deque()), type(defaultdict()), type(OrderedDict()))
P = namedtuple('P', 'a')
print(type(P(1)), P.__module__)

# %% ordereddict_fromkeys
from collections import OrderedDict
d = OrderedDict.fromkeys('abc')
print(d, list(OrderedDict.fromkeys([3, 1, 3], 0).items()))
d.move_to_end('a')
print(d)
# %% namedtuple_too_many_args
from collections import namedtuple
for P in [namedtuple('P', 'x y', defaults=[0]), namedtuple('A', 'x y', defaults=[1, 2]), namedtuple('E', '')]:
    try:
        P(1, 2, 3)
    except TypeError as e:
        print(e)
print(namedtuple('P', 'x').__bases__, namedtuple('P', 'x').__mro__)
