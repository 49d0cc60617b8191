# collections: OrderedDict (what state_dict returns and nn.Sequential accepts), defaultdict,
# Counter, namedtuple and deque, written as CPython's collections/__init__.py writes them:
# the dict-like classes are dict subclasses and namedtuple classes tuple subclasses.


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


class OrderedDict(dict):
    __module__ = 'collections'

    def __eq__(self, other):
        # Order matters only between two OrderedDicts.
        if isinstance(other, OrderedDict):
            return dict.__eq__(self, other) and list(self) == list(other)
        return dict.__eq__(self, other)

    def keys(self):
        return _OdictView('odict_keys', dict.keys(self))

    def values(self):
        return _OdictView('odict_values', dict.values(self))

    def items(self):
        return _OdictView('odict_items', dict.items(self))

    def __reversed__(self):
        return iter(list(self)[::-1])

    def popitem(self, last=True):
        if not self:
            raise KeyError('dictionary is empty')
        keys = list(self)
        k = keys[-1] if last else keys[0]
        return (k, dict.pop(self, k))

    def move_to_end(self, key, last=True):
        v = dict.pop(self, key)
        if last:
            dict.__setitem__(self, key, v)
        else:
            rest = list(dict.items(self))
            dict.clear(self)
            dict.__setitem__(self, key, v)
            for k, x in rest:
                dict.__setitem__(self, k, x)

    def copy(self):
        return self.__class__(self)

    @classmethod
    def fromkeys(cls, iterable, value=None):
        d = cls()
        for k in iterable:
            d[k] = value
        return d

    def __repr__(self):
        if not self:
            return f'{self.__class__.__name__}()'
        return f'{self.__class__.__name__}({list(dict.items(self))!r})'


class defaultdict(dict):
    __module__ = 'collections'

    def __init__(self, default_factory=None, *args, **kwargs):
        if default_factory is not None and not callable(default_factory):
            raise TypeError('first argument must be callable or None')
        dict.__init__(self, *args, **kwargs)
        self.default_factory = default_factory

    def __missing__(self, key):
        if self.default_factory is None:
            raise KeyError(key)
        value = self.default_factory()
        self[key] = value
        return value

    def copy(self):
        return self.__class__(self.default_factory, self)

    __copy__ = copy

    def __repr__(self):
        # repr of a default_factory: `<class 'int'>`, `<function f at 0x...>`, or `None`.
        return f'{type(self).__name__}({self.default_factory!r}, {dict.__repr__(self)})'


class Counter(dict):
    __module__ = 'collections'

    def __init__(self, iterable=None, /, **kwds):
        dict.__init__(self)
        self.update(iterable, **kwds)

    def __missing__(self, key):
        # A missing element counts zero (and is not stored).
        return 0

    def total(self):
        return sum(self.values())

    def most_common(self, n=None):
        # Stable sort by count, so equal counts keep first-seen order (as CPython's).
        items = sorted(self.items(), key=lambda kv: kv[1], reverse=True)
        return items if n is None else items[:n]

    def elements(self):
        out = []
        for k, v in self.items():
            for _ in range(v):
                out.append(k)
        return iter(out)

    @classmethod
    def fromkeys(cls, iterable, v=None):
        raise NotImplementedError(
            'Counter.fromkeys() is undefined.  Use Counter(iterable) instead.')

    def update(self, iterable=None, /, **kwds):
        if iterable is not None:
            if isinstance(iterable, dict):
                if self:
                    for elem, count in iterable.items():
                        self[elem] = count + self.get(elem, 0)
                else:
                    dict.update(self, iterable)
            else:
                for elem in iterable:
                    self[elem] = self.get(elem, 0) + 1
        if kwds:
            self.update(kwds)

    def subtract(self, iterable=None, /, **kwds):
        if iterable is not None:
            if isinstance(iterable, dict):
                for elem, count in iterable.items():
                    self[elem] = self.get(elem, 0) - count
            else:
                for elem in iterable:
                    self[elem] = self.get(elem, 0) - 1
        if kwds:
            self.subtract(kwds)

    def copy(self):
        return self.__class__(self)

    def __delitem__(self, elem):
        # Like dict.__delitem__() but does not raise KeyError for missing values.
        if elem in self:
            dict.__delitem__(self, elem)

    def __eq__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        return all(self[e] == other[e] for c in (self, other) for e in c)

    def __ne__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        return not self == other

    def __repr__(self):
        if not self:
            return f'{self.__class__.__name__}()'
        return f'{self.__class__.__name__}({dict(self.most_common())!r})'

    def __add__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        result = Counter()
        for elem, count in self.items():
            newcount = count + other[elem]
            if newcount > 0:
                result[elem] = newcount
        for elem, count in other.items():
            if elem not in self and count > 0:
                result[elem] = count
        return result

    def __sub__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        result = Counter()
        for elem, count in self.items():
            newcount = count - other[elem]
            if newcount > 0:
                result[elem] = newcount
        for elem, count in other.items():
            if elem not in self and count < 0:
                result[elem] = 0 - count
        return result

    def __or__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        result = Counter()
        for elem, count in self.items():
            other_count = other[elem]
            newcount = other_count if count < other_count else count
            if newcount > 0:
                result[elem] = newcount
        for elem, count in other.items():
            if elem not in self and count > 0:
                result[elem] = count
        return result

    def __and__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        result = Counter()
        for elem, count in self.items():
            other_count = other[elem]
            newcount = count if count < other_count else other_count
            if newcount > 0:
                result[elem] = newcount
        return result

    def __pos__(self):
        result = Counter()
        for elem, count in self.items():
            if count > 0:
                result[elem] = count
        return result

    def __neg__(self):
        result = Counter()
        for elem, count in self.items():
            if count < 0:
                result[elem] = 0 - count
        return result

    def _keep_positive(self):
        nonpositive = [elem for elem, count in self.items() if not count > 0]
        for elem in nonpositive:
            del self[elem]
        return self

    def __iadd__(self, other):
        for elem, count in other.items():
            self[elem] += count
        return self._keep_positive()

    def __isub__(self, other):
        for elem, count in other.items():
            self[elem] -= count
        return self._keep_positive()


class _NamedTupleBase(tuple):
    # The shared methods of every namedtuple class: the fields are the tuple's items, read
    # through one property per field that namedtuple() adds.

    def __new__(cls, *args, **kwargs):
        fields = cls._fields
        if len(args) > len(fields):
            most = len(fields) + 1
            least = most - len(cls._field_defaults)
            takes = f'from {least} to {most}' if least < most else f'{most}'
            s = '' if takes == '1' else 's'
            raise TypeError(f'{cls.__name__}.__new__() takes {takes} positional argument{s} but {len(args) + 1} were given')
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
        return tuple.__new__(cls, vals)

    def __setattr__(self, name, value):
        if name in type(self)._fields:
            raise AttributeError("can't set attribute")
        if '__slots__' in type(self).__dict__:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        object.__setattr__(self, name, value)

    def __repr__(self):
        inner = ', '.join(f'{n}={v!r}' for n, v in zip(self._fields, self))
        return f'{self.__class__.__name__}({inner})'

    def __getnewargs__(self):
        return tuple(self)

    @classmethod
    def _make(cls, iterable):
        result = tuple.__new__(cls, iterable)
        if len(result) != len(cls._fields):
            raise TypeError(f'Expected {len(cls._fields)} arguments, got {len(result)}')
        return result

    def _asdict(self):
        return dict(zip(self._fields, self))

    def _replace(self, **kwargs):
        vals = [kwargs.pop(n, v) for n, v in zip(self._fields, self)]
        if kwargs:
            raise ValueError(f'Got unexpected field names: {list(kwargs)!r}')
        return self._make(vals)


def _field_getter(index):
    return property(lambda self: self[index])


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
        '__slots__': (),
        '__match_args__': fields,
    }
    for index, name in enumerate(fields):
        ns[name] = _field_getter(index)
    # the shared methods are copied in, so the class's only base is tuple, as in CPython
    for name, value in _NamedTupleBase.__dict__.items():
        if name not in ('__module__', '__qualname__', '__doc__'):
            ns[name] = value
    return type(typename, (tuple,), ns)


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
