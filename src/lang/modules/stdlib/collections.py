# collections: OrderedDict (what state_dict returns and nn.Sequential accepts), defaultdict,
# Counter, namedtuple and deque. Each wraps a builtin dict or list (cudalearn cannot subclass
# builtin types), so isinstance(d, dict) is False for them, unlike CPython.


class _OdictView:
    # odict_keys / odict_values / odict_items: a live view printed as CPython prints it.

    def __init__(self, kind, view):
        self._kind = kind
        self._view = view

    def __iter__(self):
        return iter(self._view)

    def __len__(self):
        return len(self._view)

    def __contains__(self, x):
        return x in self._view

    def __reversed__(self):
        return iter(list(self._view)[::-1])

    def __eq__(self, other):
        if isinstance(other, _OdictView):
            other = other._view
        return self._view == other

    def __repr__(self):
        return f'{self._kind}({list(self._view)!r})'


class _DictBacked:
    # The mapping methods the dict-like classes below share, over their wrapped dict `_d`.
    def __getitem__(self, key):
        return self._d[key]

    def __setitem__(self, key, value):
        self._d[key] = value

    def __delitem__(self, key):
        del self._d[key]

    def __contains__(self, key):
        return key in self._d

    def __len__(self):
        return len(self._d)

    def __iter__(self):
        return iter(list(self._d))

    def keys(self):
        return self._d.keys()

    def values(self):
        return self._d.values()

    def items(self):
        return self._d.items()

    def get(self, key, default=None):
        return self._d.get(key, default)

    def pop(self, key, *default):
        return self._d.pop(key, *default)

    def setdefault(self, key, default=None):
        return self._d.setdefault(key, default)

    def clear(self):
        self._d.clear()


class OrderedDict(_DictBacked):
    __module__ = 'collections'

    def __init__(self, other=None, **kwargs):
        object.__setattr__(self, '_d', {})
        if other is not None:
            self.update(other)
        for k, v in kwargs.items():
            self._d[k] = v

    def update(self, other=(), **kwargs):
        if isinstance(other, (dict, OrderedDict)):
            for k in other.keys():
                self._d[k] = other[k]
        else:
            for k, v in other:
                self._d[k] = v
        for k, v in kwargs.items():
            self._d[k] = v

    def __eq__(self, other):
        if isinstance(other, OrderedDict):
            return list(self._d.items()) == list(other._d.items())
        return self._d == other

    def keys(self):
        return _OdictView('odict_keys', self._d.keys())

    def values(self):
        return _OdictView('odict_values', self._d.values())

    def items(self):
        return _OdictView('odict_items', self._d.items())

    def popitem(self, last=True):
        keys = list(self._d)
        if not keys:
            raise KeyError('dictionary is empty')
        k = keys[-1] if last else keys[0]
        return (k, self._d.pop(k))

    def move_to_end(self, key, last=True):
        v = self._d.pop(key)
        if last:
            self._d[key] = v
        else:
            rest = self._d
            object.__setattr__(self, '_d', {key: v})
            for k, x in rest.items():
                self._d[k] = x

    def copy(self):
        return OrderedDict(self)

    @classmethod
    def fromkeys(cls, iterable, value=None):
        d = cls()
        for k in iterable:
            d[k] = value
        return d

    def __repr__(self):
        if not self._d:
            return 'OrderedDict()'
        return 'OrderedDict(' + repr(list(self._d.items())) + ')'


def _type_repr(f):
    # repr of a default_factory: `<class 'int'>`, `<function f at 0x...>`, or `None`.
    return repr(f)


class defaultdict(_DictBacked):
    __module__ = 'collections'

    def __init__(self, default_factory=None, *args, **kwargs):
        if default_factory is not None and not callable(default_factory):
            raise TypeError('first argument must be callable or None')
        object.__setattr__(self, 'default_factory', default_factory)
        object.__setattr__(self, '_d', dict(*args, **kwargs))

    def __missing__(self, key):
        if self.default_factory is None:
            raise KeyError(key)
        v = self.default_factory()
        self._d[key] = v
        return v

    def __getitem__(self, key):
        if key in self._d:
            return self._d[key]
        return self.__missing__(key)

    def __eq__(self, other):
        if isinstance(other, (defaultdict, OrderedDict, Counter)):
            return self._d == other._d
        return self._d == other

    def update(self, *args, **kwargs):
        self._d.update(*args, **kwargs)

    def copy(self):
        return defaultdict(self.default_factory, self._d)

    def __repr__(self):
        return f'defaultdict({_type_repr(self.default_factory)}, {self._d!r})'


class Counter(_DictBacked):
    __module__ = 'collections'

    def __init__(self, iterable=None, **kwds):
        object.__setattr__(self, '_d', {})
        self.update(iterable, **kwds)

    def update(self, iterable=None, **kwds):
        if iterable is not None:
            if isinstance(iterable, (dict, Counter, OrderedDict, defaultdict)):
                for k, v in iterable.items():
                    self._d[k] = self._d.get(k, 0) + v
            else:
                for k in iterable:
                    self._d[k] = self._d.get(k, 0) + 1
        for k, v in kwds.items():
            self._d[k] = self._d.get(k, 0) + v

    def subtract(self, iterable=None, **kwds):
        if iterable is not None:
            if isinstance(iterable, (dict, Counter, OrderedDict, defaultdict)):
                for k, v in iterable.items():
                    self._d[k] = self._d.get(k, 0) - v
            else:
                for k in iterable:
                    self._d[k] = self._d.get(k, 0) - 1
        for k, v in kwds.items():
            self._d[k] = self._d.get(k, 0) - v

    def __getitem__(self, key):
        return self._d.get(key, 0)

    def __delitem__(self, key):
        if key in self._d:
            del self._d[key]

    def __eq__(self, other):
        if isinstance(other, Counter):
            return {k: v for k, v in self._d.items() if v} == {k: v for k, v in other._d.items() if v}
        return self._d == other

    def copy(self):
        return Counter(self)

    def total(self):
        return sum(self._d.values())

    def most_common(self, n=None):
        # Stable sort by count, so equal counts keep first-seen order (as CPython's).
        items = sorted(self._d.items(), key=lambda kv: kv[1], reverse=True)
        return items if n is None else items[:n]

    def elements(self):
        out = []
        for k, v in self._d.items():
            for _ in range(v):
                out.append(k)
        return iter(out)

    def _keep_positive(self):
        return Counter({k: v for k, v in self._d.items() if v > 0})

    def __add__(self, other):
        out = Counter()
        for k, v in self._d.items():
            n = v + other[k]
            if n > 0:
                out._d[k] = n
        for k, v in other._d.items():
            if k not in self._d and v > 0:
                out._d[k] = v
        return out

    def __sub__(self, other):
        out = Counter()
        for k, v in self._d.items():
            n = v - other[k]
            if n > 0:
                out._d[k] = n
        for k, v in other._d.items():
            if k not in self._d and v < 0:
                out._d[k] = -v
        return out

    def __or__(self, other):
        out = Counter()
        for k, v in self._d.items():
            n = max(v, other[k])
            if n > 0:
                out._d[k] = n
        for k, v in other._d.items():
            if k not in self._d and v > 0:
                out._d[k] = v
        return out

    def __and__(self, other):
        out = Counter()
        for k, v in self._d.items():
            n = min(v, other[k])
            if n > 0:
                out._d[k] = n
        return out

    def __repr__(self):
        if not self._d:
            return 'Counter()'
        inner = ', '.join(f'{k!r}: {v!r}' for k, v in self.most_common())
        return 'Counter({' + inner + '})'


class _NamedTupleBase:
    # The shared methods of every namedtuple class; fields live in `_v`.

    def __init__(self, *args, **kwargs):
        cls = type(self)
        fields = cls._fields
        if len(args) > len(fields):
            raise TypeError(f'{cls.__name__}.__new__() takes {len(fields) + 1} positional arguments but {len(args) + 1} were given')
        vals = list(args)
        for name in fields[len(args):]:
            if name in kwargs:
                vals.append(kwargs.pop(name))
            elif name in cls._field_defaults:
                vals.append(cls._field_defaults[name])
            else:
                missing = [n for n in fields[len(vals):] if n not in kwargs and n not in cls._field_defaults]
                if len(missing) == 1:
                    text = f"'{missing[0]}'"
                else:
                    text = ', '.join(f"'{m}'" for m in missing[:-1]) + f" and '{missing[-1]}'"
                raise TypeError(f"{cls.__name__}.__new__() missing {len(missing)} required positional argument{'s' if len(missing) > 1 else ''}: {text}")
        for k in kwargs:
            if k in fields:
                raise TypeError(f"{cls.__name__}.__new__() got multiple values for argument '{k}'")
            raise TypeError(f"{cls.__name__}.__new__() got an unexpected keyword argument '{k}'")
        object.__setattr__(self, '_v', tuple(vals))

    def __getattr__(self, name):
        fields = type(self)._fields
        if name in fields:
            return self._v[fields.index(name)]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name, value):
        raise AttributeError("can't set attribute")

    def __getitem__(self, i):
        return self._v[i]

    def __iter__(self):
        return iter(self._v)

    def __len__(self):
        return len(self._v)

    def __contains__(self, x):
        return x in self._v

    def __eq__(self, other):
        if isinstance(other, _NamedTupleBase):
            return self._v == other._v
        return self._v == other

    def __lt__(self, other):
        return self._v < tuple(other)

    def __le__(self, other):
        return self._v <= tuple(other)

    def __gt__(self, other):
        return self._v > tuple(other)

    def __ge__(self, other):
        return self._v >= tuple(other)

    def __hash__(self):
        return hash(self._v)

    def __add__(self, other):
        return self._v + tuple(other)

    def __repr__(self):
        inner = ', '.join(f'{n}={v!r}' for n, v in zip(type(self)._fields, self._v))
        return f'{type(self).__name__}({inner})'

    def _asdict(self):
        return dict(zip(type(self)._fields, self._v))

    def _replace(self, **kwargs):
        vals = [kwargs.pop(n, v) for n, v in zip(type(self)._fields, self._v)]
        if kwargs:
            raise ValueError(f'Got unexpected field names: {list(kwargs)!r}')
        return type(self)(*vals)

    def count(self, x):
        return self._v.count(x)

    def index(self, x):
        return self._v.index(x)


def _is_identifier(s):
    if not s or s[0].isdigit():
        return False
    return all(c == '_' or c.isalnum() for c in s)


def namedtuple(typename, field_names, *, rename=False, defaults=None, module=None):
    if isinstance(field_names, str):
        field_names = field_names.replace(',', ' ').split()
    fields = tuple(str(f) for f in field_names)
    seen = set()
    for name in (typename,) + fields:
        if not _is_identifier(name):
            raise ValueError(f'Type names and field names must be valid identifiers: {name!r}')
    for name in fields:
        if name.startswith('_'):
            raise ValueError(f'Field names cannot start with an underscore: {name!r}')
        if name in seen:
            raise ValueError(f'Encountered duplicate field name: {name!r}')
        seen.add(name)
    field_defaults = {}
    if defaults is not None:
        defaults = tuple(defaults)
        if len(defaults) > len(fields):
            raise TypeError('Got more default values than field names')
        field_defaults = dict(zip(fields[len(fields) - len(defaults):], defaults))
    ns = {
        '_fields': fields,
        '_field_defaults': field_defaults,
        '__module__': '__main__' if module is None else module,
    }
    cls = type(typename, (_NamedTupleBase,), ns)
    cls._make = lambda iterable: cls(*iterable)
    return cls


class deque:
    __module__ = 'collections'

    def __init__(self, iterable=(), maxlen=None):
        if maxlen is not None:
            if not isinstance(maxlen, int):
                raise TypeError('an integer is required')
            if maxlen < 0:
                raise ValueError('maxlen must be non-negative')
        object.__setattr__(self, 'maxlen', maxlen)
        object.__setattr__(self, '_l', [])
        self.extend(iterable)

    def _trim_left(self):
        if self.maxlen is not None:
            while len(self._l) > self.maxlen:
                self._l.pop(0)

    def _trim_right(self):
        if self.maxlen is not None:
            while len(self._l) > self.maxlen:
                self._l.pop()

    def append(self, x):
        self._l.append(x)
        self._trim_left()

    def appendleft(self, x):
        self._l.insert(0, x)
        self._trim_right()

    def extend(self, iterable):
        for x in list(iterable):
            self.append(x)

    def extendleft(self, iterable):
        for x in list(iterable):
            self.appendleft(x)

    def pop(self):
        if not self._l:
            raise IndexError('pop from an empty deque')
        return self._l.pop()

    def popleft(self):
        if not self._l:
            raise IndexError('pop from an empty deque')
        return self._l.pop(0)

    def rotate(self, n=1):
        k = len(self._l)
        if k:
            n = n % k
            if n:
                object.__setattr__(self, '_l', self._l[-n:] + self._l[:-n])

    def clear(self):
        self._l.clear()

    def copy(self):
        return deque(self._l, self.maxlen)

    def count(self, x):
        return self._l.count(x)

    def index(self, x, *args):
        return self._l.index(x, *args)

    def insert(self, i, x):
        if self.maxlen is not None and len(self._l) >= self.maxlen:
            raise IndexError('deque already at its maximum size')
        self._l.insert(i, x)

    def remove(self, x):
        if x not in self._l:
            raise ValueError(f'{x!r} is not in deque')
        self._l.remove(x)

    def reverse(self):
        self._l.reverse()

    def __len__(self):
        return len(self._l)

    def __iter__(self):
        return iter(list(self._l))

    def __reversed__(self):
        return iter(self._l[::-1])

    def __getitem__(self, i):
        if isinstance(i, slice):
            raise TypeError('sequence index must be integer, not \'slice\'')
        if not -len(self._l) <= i < len(self._l):
            raise IndexError('deque index out of range')
        return self._l[i]

    def __setitem__(self, i, x):
        self._l[i] = x

    def __delitem__(self, i):
        del self._l[i]

    def __contains__(self, x):
        return x in self._l

    def __eq__(self, other):
        return isinstance(other, deque) and self._l == other._l

    def __repr__(self):
        if self.maxlen is None:
            return f'deque({self._l!r})'
        return f'deque({self._l!r}, maxlen={self.maxlen})'
