# itertools: lazy iterator objects (classes with __iter__/__next__), as CPython's are;
# nothing is computed before next() asks for it, so count() and cycle() may run forever.


class _It:
    __module__ = 'itertools'

    def __iter__(self):
        return self


class count(_It):
    def __init__(self, start=0, step=1):
        for v in (start, step):
            if not isinstance(v, (int, float)):
                raise TypeError('a number is required')
        self._n = start
        self._step = step

    def __next__(self):
        n = self._n
        self._n = n + self._step
        return n

    def __repr__(self):
        if self._step == 1:
            return f'count({self._n!r})'
        return f'count({self._n!r}, {self._step!r})'


class cycle(_It):
    def __init__(self, iterable):
        self._it = iter(iterable)
        self._saved = []
        self._i = -1

    def __next__(self):
        if self._i < 0:
            for x in self._it:
                self._saved.append(x)
                return x
            if not self._saved:
                raise StopIteration
            self._i = 0
        x = self._saved[self._i]
        self._i = (self._i + 1) % len(self._saved)
        return x


class repeat(_It):
    def __init__(self, object, times=None):
        self._x = object
        self._left = times

    def __next__(self):
        if self._left is not None:
            if self._left <= 0:
                raise StopIteration
            self._left -= 1
        return self._x

    def __repr__(self):
        if self._left is None:
            return f'repeat({self._x!r})'
        return f'repeat({self._x!r}, {self._left})'


class chain(_It):
    def __init__(self, *iterables):
        self._its = iter(iterables)
        self._cur = None

    def __next__(self):
        while True:
            if self._cur is None:
                self._cur = iter(next(self._its))
            for x in self._cur:
                return x
            self._cur = None


def _from_iterable(iterables):
    c = chain()
    c._its = iter(iterables)
    return c


chain.from_iterable = _from_iterable


class islice(_It):
    def __init__(self, iterable, *args):
        if len(args) == 0 or len(args) > 3:
            raise TypeError(f'islice expected at most 4 arguments, got {len(args) + 1}' if args else 'islice expected at least 2 arguments, got 1')
        if len(args) == 1:
            start, stop, step = None, args[0], None
        else:
            start, stop, step = (list(args) + [None])[:3]
        if stop is not None and (not isinstance(stop, int) or stop < 0):
            raise ValueError('Stop argument for islice() must be None or an integer: 0 <= x <= sys.maxsize.')
        if start is not None and (not isinstance(start, int) or start < 0) or step is not None and (not isinstance(step, int) or step <= 0):
            raise ValueError('Indices for islice() must be None or an integer: 0 <= x <= sys.maxsize.')
        self._it = iter(iterable)
        self._next = 0 if start is None else start
        self._stop = stop
        self._step = 1 if step is None else step
        self._pos = 0

    def __next__(self):
        if self._stop is not None and self._next >= self._stop:
            raise StopIteration
        while self._pos < self._next:
            next(self._it)
            self._pos += 1
        x = next(self._it)
        self._pos += 1
        self._next += self._step
        return x


class zip_longest(_It):
    def __init__(self, *iterables, fillvalue=None):
        self._its = [iter(it) for it in iterables]
        self._fill = fillvalue
        self._active = len(self._its)

    def __next__(self):
        if not self._its or self._active == 0:
            raise StopIteration
        out = []
        for i in range(len(self._its)):
            it = self._its[i]
            if it is None:
                out.append(self._fill)
                continue
            done = True
            for x in it:
                out.append(x)
                done = False
                break
            if done:
                self._its[i] = None
                self._active -= 1
                if self._active == 0:
                    raise StopIteration
                out.append(self._fill)
        return tuple(out)


class product(_It):
    def __init__(self, *iterables, repeat=1):
        if repeat < 0:
            raise ValueError('repeat argument cannot be negative')
        pools = [tuple(p) for p in iterables] * repeat
        self._pools = pools
        self._idx = [0] * len(pools)
        self._done = any(len(p) == 0 for p in pools)
        self._first = True

    def __next__(self):
        if self._done:
            raise StopIteration
        if self._first:
            self._first = False
        else:
            i = len(self._pools) - 1
            while i >= 0:
                self._idx[i] += 1
                if self._idx[i] < len(self._pools[i]):
                    break
                self._idx[i] = 0
                i -= 1
            if i < 0:
                self._done = True
                raise StopIteration
        return tuple(p[j] for p, j in zip(self._pools, self._idx))


class accumulate(_It):
    def __init__(self, iterable, func=None, *, initial=None):
        self._it = iter(iterable)
        self._func = func
        self._total = initial
        self._started = initial is not None
        self._emit_initial = initial is not None

    def __next__(self):
        if self._emit_initial:
            self._emit_initial = False
            return self._total
        x = next(self._it)
        if not self._started:
            self._started = True
            self._total = x
        elif self._func is None:
            self._total = self._total + x
        else:
            self._total = self._func(self._total, x)
        return self._total


class pairwise(_It):
    def __init__(self, iterable):
        self._it = iter(iterable)
        self._prev = None
        self._started = False

    def __next__(self):
        if not self._started:
            self._prev = next(self._it)
            self._started = True
        x = next(self._it)
        pair = (self._prev, x)
        self._prev = x
        return pair


class starmap(_It):
    def __init__(self, function, iterable):
        self._f = function
        self._it = iter(iterable)

    def __next__(self):
        return self._f(*next(self._it))


class takewhile(_It):
    def __init__(self, predicate, iterable):
        self._p = predicate
        self._it = iter(iterable)
        self._stopped = False

    def __next__(self):
        if self._stopped:
            raise StopIteration
        x = next(self._it)
        if self._p(x):
            return x
        self._stopped = True
        raise StopIteration


class dropwhile(_It):
    def __init__(self, predicate, iterable):
        self._p = predicate
        self._it = iter(iterable)
        self._dropping = True

    def __next__(self):
        while True:
            x = next(self._it)
            if not self._dropping or not self._p(x):
                self._dropping = False
                return x


class _Indices(_It):
    # Shared by combinations and permutations: tuples of the pool picked by index lists made
    # ahead of time (small pools, as tutorials use them).
    def __init__(self, pool, picks):
        self._pool = pool
        self._picks = picks
        self._i = 0

    def __next__(self):
        if self._i >= len(self._picks):
            raise StopIteration
        p = self._picks[self._i]
        self._i += 1
        return tuple(self._pool[j] for j in p)


def _combos(n, r, start):
    if r == 0:
        return [[]]
    out = []
    for i in range(start, n):
        for rest in _combos(n, r - 1, i + 1):
            out.append([i] + rest)
    return out


def _perms(n, r, used):
    if r == 0:
        return [[]]
    out = []
    for i in range(n):
        if i not in used:
            for rest in _perms(n, r - 1, used + [i]):
                out.append([i] + rest)
    return out


class combinations(_Indices):
    def __init__(self, iterable, r):
        if r < 0:
            raise ValueError('r must be non-negative')
        pool = tuple(iterable)
        super().__init__(pool, _combos(len(pool), r, 0) if r <= len(pool) else [])


class permutations(_Indices):
    def __init__(self, iterable, r=None):
        pool = tuple(iterable)
        r = len(pool) if r is None else r
        if r < 0:
            raise ValueError('r must be non-negative')
        super().__init__(pool, _perms(len(pool), r, []) if r <= len(pool) else [])


class combinations_with_replacement(_Indices):
    def __init__(self, iterable, r):
        if r < 0:
            raise ValueError('r must be non-negative')
        pool = tuple(iterable)
        picks = _multisets(len(pool), r, 0) if pool or r == 0 else []
        super().__init__(pool, picks)


def _multisets(n, r, start):
    if r == 0:
        return [[]]
    out = []
    for i in range(start, n):
        for rest in _multisets(n, r - 1, i):
            out.append([i] + rest)
    return out


class compress(_It):
    def __init__(self, data, selectors):
        self._pairs = zip(data, selectors)

    def __next__(self):
        while True:
            d, s = next(self._pairs)
            if s:
                return d


class filterfalse(_It):
    def __init__(self, predicate, iterable):
        self._p = bool if predicate is None else predicate
        self._it = iter(iterable)

    def __next__(self):
        while True:
            x = next(self._it)
            if not self._p(x):
                return x


class _Group(_It):
    # One group of groupby: yields while the key stays the same.
    def __init__(self, parent, key):
        self._parent = parent
        self._key = key

    def __next__(self):
        p = self._parent
        if p._current is not self or p._done:
            raise StopIteration
        if p._pending:
            p._pending = False
            return p._value
        p._advance()
        if p._done or p._tkey != self._key:
            raise StopIteration
        return p._value


class groupby(_It):
    def __init__(self, iterable, key=None):
        self._it = iter(iterable)
        self._keyfunc = key
        self._done = False
        self._pending = False
        self._started = False
        self._current = None
        self._tkey = None
        self._value = None

    def _advance(self):
        for x in self._it:
            self._value = x
            self._tkey = x if self._keyfunc is None else self._keyfunc(x)
            return
        self._done = True

    def __next__(self):
        if not self._started:
            self._started = True
            self._advance()
        elif self._pending:
            # The previous group was never read: its first value is still waiting.
            self._pending = False
            self._advance()
        if self._current is not None:
            # Skip what is left of the previous group.
            prev = self._current._key
            while not self._done and self._tkey == prev:
                self._advance()
        if self._done:
            raise StopIteration
        group = _Group(self, self._tkey)
        self._current = group
        self._pending = True
        return (self._tkey, group)


class _TeeBuffer:
    # The items one tee iterator has read and another not yet: `items[k]` is item
    # `start + k` of the source. Items every iterator has passed are dropped.
    def __init__(self, iterable):
        self.source = iter(iterable)
        self.items = []
        self.start = 0
        self.members = []

    def get(self, i):
        while i - self.start >= len(self.items):
            self.items.append(next(self.source))
        v = self.items[i - self.start]
        low = min(m._i for m in self.members)
        if low - self.start > 64:
            del self.items[:low - self.start]
            self.start = low
        return v


class _tee(_It):
    def __init__(self, buf):
        self._buf = buf
        self._i = 0
        buf.members.append(self)

    def __next__(self):
        v = self._buf.get(self._i)
        self._i += 1
        return v


def tee(iterable, n=2):
    # Lazy, as CPython's: each iterator reads the source only as far as it is asked to.
    if n < 0:
        raise ValueError('n must be >= 0')
    buf = _TeeBuffer(iterable)
    return tuple(_tee(buf) for _ in range(n))
