# collections: OrderedDict (what state_dict returns and nn.Sequential accepts).


class OrderedDict:
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

    def __eq__(self, other):
        if isinstance(other, OrderedDict):
            return list(self._d.items()) == list(other._d.items())
        return self._d == other

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

    def clear(self):
        self._d.clear()

    def __repr__(self):
        if not self._d:
            return 'OrderedDict()'
        return 'OrderedDict(' + repr(list(self._d.items())) + ')'
