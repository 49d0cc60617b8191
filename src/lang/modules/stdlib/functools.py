# functools: partial, reduce, lru_cache/cache, wraps/update_wrapper, cmp_to_key.

_initial_missing = object()


def reduce(function, iterable, initial=_initial_missing):
    it = iter(iterable)
    if initial is _initial_missing:
        value = _initial_missing
        for value in it:
            break
        if value is _initial_missing:
            raise TypeError('reduce() of empty iterable with no initial value')
    else:
        value = initial
    for element in it:
        value = function(value, element)
    return value


class partial:
    __module__ = 'functools'

    def __init__(self, func, *args, **keywords):
        if not callable(func):
            raise TypeError('the first argument must be callable')
        if isinstance(func, partial):
            args = func.args + args
            keywords = {**func.keywords, **keywords}
            func = func.func
        self.func = func
        self.args = args
        self.keywords = keywords

    def __call__(self, *args, **keywords):
        return self.func(*self.args, *args, **{**self.keywords, **keywords})

    def __repr__(self):
        parts = [repr(self.func)] + [repr(a) for a in self.args]
        parts += [f'{k}={v!r}' for k, v in self.keywords.items()]
        return 'functools.partial(' + ', '.join(parts) + ')'


WRAPPER_ASSIGNMENTS = ('__module__', '__name__', '__qualname__', '__doc__')


def update_wrapper(wrapper, wrapped, assigned=WRAPPER_ASSIGNMENTS, updated=()):
    for attr in assigned:
        try:
            value = getattr(wrapped, attr)
        except AttributeError:
            continue
        setattr(wrapper, attr, value)
    wrapper.__wrapped__ = wrapped
    return wrapper


def wraps(wrapped, assigned=WRAPPER_ASSIGNMENTS, updated=()):
    return partial(update_wrapper, wrapped=wrapped, assigned=assigned, updated=updated)


class _CacheInfo:
    __module__ = 'functools'

    def __init__(self, hits, misses, maxsize, currsize):
        self.hits = hits
        self.misses = misses
        self.maxsize = maxsize
        self.currsize = currsize

    def __iter__(self):
        return iter((self.hits, self.misses, self.maxsize, self.currsize))

    def __eq__(self, other):
        return tuple(self) == tuple(other)

    def __hash__(self):
        return hash(tuple(self))

    def __repr__(self):
        return f'CacheInfo(hits={self.hits}, misses={self.misses}, maxsize={self.maxsize}, currsize={self.currsize})'


class _LruWrapper:
    __module__ = 'functools'

    def __init__(self, func, maxsize, typed):
        self.__wrapped__ = func
        self._func = func
        self._maxsize = maxsize
        self._typed = typed
        self._cache = {}
        self._hits = 0
        self._misses = 0

    def _key(self, args, kwds):
        key = args
        if kwds:
            key = key + (_kwd_mark,) + tuple(kwds.items())
        if self._typed:
            key = key + tuple(type(v) for v in args) + tuple(type(v) for v in kwds.values())
        return key

    def __call__(self, *args, **kwds):
        key = self._key(args, kwds)
        if key in self._cache:
            self._hits += 1
            # Most recently used moves to the end.
            value = self._cache.pop(key)
            self._cache[key] = value
            return value
        self._misses += 1
        value = self._func(*args, **kwds)
        if self._maxsize is None or self._maxsize > 0:
            self._cache[key] = value
            if self._maxsize is not None and len(self._cache) > self._maxsize:
                del self._cache[next(iter(self._cache))]
        return value

    def cache_info(self):
        return _CacheInfo(self._hits, self._misses, self._maxsize, len(self._cache))

    def cache_clear(self):
        self._cache = {}
        self._hits = 0
        self._misses = 0

    def cache_parameters(self):
        return {'maxsize': self._maxsize, 'typed': self._typed}

    def __getattr__(self, name):
        return getattr(self._func, name)

    def __repr__(self):
        return repr(self._func)


_kwd_mark = object()


def lru_cache(maxsize=128, typed=False):
    if callable(maxsize) and isinstance(typed, bool):
        # @lru_cache without parentheses.
        return _LruWrapper(maxsize, 128, typed)
    if maxsize is not None and not isinstance(maxsize, int):
        raise TypeError('Expected first argument to be an integer, a callable, or None')
    if maxsize is not None and maxsize < 0:
        maxsize = 0

    def decorating_function(user_function):
        return _LruWrapper(user_function, maxsize, typed)
    return decorating_function


def cache(user_function):
    return _LruWrapper(user_function, None, False)


class _Key:
    def __init__(self, obj, mycmp):
        self.obj = obj
        self._cmp = mycmp

    def __lt__(self, other):
        return self._cmp(self.obj, other.obj) < 0

    def __gt__(self, other):
        return self._cmp(self.obj, other.obj) > 0

    def __eq__(self, other):
        return self._cmp(self.obj, other.obj) == 0

    def __le__(self, other):
        return self._cmp(self.obj, other.obj) <= 0

    def __ge__(self, other):
        return self._cmp(self.obj, other.obj) >= 0


def cmp_to_key(mycmp):
    return lambda obj: _Key(obj, mycmp)


def _not(op):
    return lambda self, other: _negate(op(self, other))


def _negate(r):
    return r if r is NotImplemented else not r


def total_ordering(cls):
    """Fills in the missing comparisons from __eq__ and one of __lt__, __le__, __gt__, __ge__."""
    d = cls.__dict__
    roots = [op for op in ('__lt__', '__le__', '__gt__', '__ge__') if op in d]
    if not roots:
        raise ValueError('must define at least one ordering operation: < > <= >=')
    root = roots[0]
    f = d[root]
    if root == '__lt__':
        derived = {
            '__gt__': lambda s, o: _gt_from_lt(f, s, o),
            '__le__': lambda s, o: _le_from_lt(f, s, o),
            '__ge__': _not(f),
        }
    elif root == '__le__':
        derived = {
            '__ge__': lambda s, o: _ge_from_le(f, s, o),
            '__lt__': lambda s, o: _lt_from_le(f, s, o),
            '__gt__': _not(f),
        }
    elif root == '__gt__':
        derived = {
            '__lt__': lambda s, o: _gt_from_lt(f, s, o),
            '__ge__': lambda s, o: _le_from_lt(f, s, o),
            '__le__': _not(f),
        }
    else:
        derived = {
            '__le__': lambda s, o: _ge_from_le(f, s, o),
            '__gt__': lambda s, o: _lt_from_le(f, s, o),
            '__lt__': _not(f),
        }
    for name, fn in derived.items():
        if name not in d:
            setattr(cls, name, fn)
    return cls


def _gt_from_lt(lt, a, b):
    r = lt(a, b)
    if r is NotImplemented:
        return r
    return not r and a != b


def _le_from_lt(lt, a, b):
    r = lt(a, b)
    if r is NotImplemented:
        return r
    return r or a == b


def _ge_from_le(le, a, b):
    r = le(a, b)
    if r is NotImplemented:
        return r
    return not r or a == b


def _lt_from_le(le, a, b):
    r = le(a, b)
    if r is NotImplemented:
        return r
    return r and a != b
