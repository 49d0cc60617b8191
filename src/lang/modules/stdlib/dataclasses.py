# dataclasses: @dataclass reads the class's __annotations__ and adds __init__, __repr__ and
# __eq__ (and ordering, frozen, asdict/astuple/fields/replace), as CPython's does.

MISSING = object()


class FrozenInstanceError(AttributeError):
    __module__ = 'dataclasses'


class Field:
    __module__ = 'dataclasses'

    def __init__(self, default, default_factory, init, repr, compare):
        self.name = None
        self.type = None
        self.default = default
        self.default_factory = default_factory
        self.init = init
        self.repr = repr
        self.compare = compare

    def __repr__(self):
        return f'Field(name={self.name!r},type={self.type!r},default={self.default!r},default_factory={self.default_factory!r},init={self.init!r},repr={self.repr!r},compare={self.compare!r})'


def field(*, default=MISSING, default_factory=MISSING, init=True, repr=True, hash=None, compare=True, metadata=None, kw_only=MISSING):
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError('cannot specify both default and default_factory')
    return Field(default, default_factory, init, repr, compare)


def _fields_of(cls):
    out = []
    for base in reversed(cls.__mro__[1:]):
        for f in getattr(base, '__dataclass_fields__', {}).values():
            out = [g for g in out if g.name != f.name]
            out.append(f)
    anns = cls.__dict__.get('__annotations__', {}) if hasattr(cls, '__dict__') else {}
    for name, typ in anns.items():
        default = cls.__dict__.get(name, MISSING)
        if isinstance(default, Field):
            f = default
            if f.default is MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, f.default)
        else:
            if isinstance(default, (list, dict, set)):
                raise ValueError(f'mutable default {type(default)} for field {name} is not allowed: use default_factory')
            f = Field(default, MISSING, True, True, True)
        f.name = name
        f.type = typ
        out = [g for g in out if g.name != name]
        out.append(f)
    return out


def _init_fn(cls, fields):
    params = [f for f in fields if f.init]
    seen_default = False
    for f in params:
        if f.default is MISSING and f.default_factory is MISSING:
            if seen_default:
                raise TypeError(f'non-default argument {f.name!r} follows default argument')
        else:
            seen_default = True

    def __init__(self, *args, **kwargs):
        qual = type(self).__qualname__
        if len(args) > len(params):
            raise TypeError(f'{qual}.__init__() takes {len(params) + 1} positional arguments but {len(args) + 1} were given')
        values = {}
        for f, a in zip(params, args):
            values[f.name] = a
        for k, v in kwargs.items():
            if not any(f.name == k for f in params):
                raise TypeError(f"{qual}.__init__() got an unexpected keyword argument '{k}'")
            if k in values:
                raise TypeError(f"{qual}.__init__() got multiple values for argument '{k}'")
            values[k] = v
        missing = [f.name for f in params if f.name not in values and f.default is MISSING and f.default_factory is MISSING]
        if missing:
            if len(missing) == 1:
                text = f"'{missing[0]}'"
            else:
                text = ', '.join(f"'{m}'" for m in missing[:-1]) + f" and '{missing[-1]}'"
            raise TypeError(f"{qual}.__init__() missing {len(missing)} required positional argument{'s' if len(missing) > 1 else ''}: {text}")
        for f in fields:
            if f.name in values:
                v = values[f.name]
            elif f.default_factory is not MISSING:
                v = f.default_factory()
            elif f.default is not MISSING:
                v = f.default
            else:
                continue
            object.__setattr__(self, f.name, v)
        post = getattr(self, '__post_init__', None)
        if post is not None:
            post()
    return __init__


def _tuple_of(obj, fields):
    return tuple(getattr(obj, f.name) for f in fields if f.compare)


def _add_order(cls, fields):
    def check(self, other, op):
        if type(other) is not type(self):
            raise TypeError(f"'{op}' not supported between instances of '{type(self).__name__}' and '{type(other).__name__}'")

    def __lt__(self, other):
        check(self, other, '<')
        return _tuple_of(self, fields) < _tuple_of(other, fields)

    def __le__(self, other):
        check(self, other, '<=')
        return _tuple_of(self, fields) <= _tuple_of(other, fields)

    def __gt__(self, other):
        check(self, other, '>')
        return _tuple_of(self, fields) > _tuple_of(other, fields)

    def __ge__(self, other):
        check(self, other, '>=')
        return _tuple_of(self, fields) >= _tuple_of(other, fields)
    cls.__lt__ = __lt__
    cls.__le__ = __le__
    cls.__gt__ = __gt__
    cls.__ge__ = __ge__


_MISSING_HASH = object()


def _process_class(cls, init, repr, eq, order, frozen, unsafe_hash=False):
    fields = _fields_of(cls)
    class_hash = cls.__dict__.get('__hash__', _MISSING_HASH)
    has_explicit_hash = not (class_hash is _MISSING_HASH or
                             (class_hash is None and '__eq__' in cls.__dict__))
    cls.__dataclass_fields__ = {f.name: f for f in fields}
    if init and '__init__' not in cls.__dict__:
        cls.__init__ = _init_fn(cls, fields)
    if repr and '__repr__' not in cls.__dict__:
        def __repr__(self):
            inner = ', '.join(f'{f.name}={getattr(self, f.name)!r}' for f in fields if f.repr)
            return f'{type(self).__qualname__}({inner})'
        cls.__repr__ = __repr__
    if eq and '__eq__' not in cls.__dict__:
        def __eq__(self, other):
            if type(other) is not type(self):
                return NotImplemented
            return _tuple_of(self, fields) == _tuple_of(other, fields)
        cls.__eq__ = __eq__
    if order:
        if not eq:
            raise ValueError('eq must be true if order is true')
        _add_order(cls, fields)
    if frozen:
        def __setattr__(self, name, value):
            raise FrozenInstanceError(f"cannot assign to field '{name}'")

        def __delattr__(self, name):
            raise FrozenInstanceError(f"cannot delete field '{name}'")
        cls.__setattr__ = __setattr__
        cls.__delattr__ = __delattr__
    # CPython's table: which of None / an added __hash__ / the class's own applies.
    if unsafe_hash:
        if has_explicit_hash:
            raise TypeError(f'Cannot overwrite attribute __hash__ in class {cls.__name__}')
        cls.__hash__ = lambda self: hash(_tuple_of(self, fields))
    elif eq and frozen:
        if not has_explicit_hash:
            cls.__hash__ = lambda self: hash(_tuple_of(self, fields))
    elif eq and not has_explicit_hash:
        cls.__hash__ = None
    return cls


def dataclass(cls=None, *, init=True, repr=True, eq=True, order=False, unsafe_hash=False, frozen=False, match_args=True, kw_only=False, slots=False):
    def wrap(c):
        return _process_class(c, init, repr, eq, order, frozen, unsafe_hash)
    if cls is None:
        return wrap
    return wrap(cls)


def is_dataclass(obj):
    cls = obj if isinstance(obj, type) else type(obj)
    return hasattr(cls, '__dataclass_fields__')


def fields(class_or_instance):
    if not is_dataclass(class_or_instance):
        raise TypeError('must be called with a dataclass type or instance')
    return tuple(class_or_instance.__dataclass_fields__.values())


def _copy_value(v, inner):
    if is_dataclass(v) and not isinstance(v, type):
        return inner(v)
    if isinstance(v, list):
        return [_copy_value(x, inner) for x in v]
    if isinstance(v, tuple):
        return tuple(_copy_value(x, inner) for x in v)
    if isinstance(v, dict):
        return {_copy_value(k, inner): _copy_value(x, inner) for k, x in v.items()}
    return v


def asdict(obj):
    if not is_dataclass(obj) or isinstance(obj, type):
        raise TypeError('asdict() should be called on dataclass instances')
    return {f.name: _copy_value(getattr(obj, f.name), asdict) for f in fields(obj)}


def astuple(obj):
    if not is_dataclass(obj) or isinstance(obj, type):
        raise TypeError('astuple() should be called on dataclass instances')
    return tuple(_copy_value(getattr(obj, f.name), astuple) for f in fields(obj))


def replace(obj, **changes):
    for f in fields(obj):
        if f.init and f.name not in changes:
            changes[f.name] = getattr(obj, f.name)
    return type(obj)(**changes)
