# typing: the names annotations use. They print as CPython's do (`typing.List[int]`,
# `typing.Optional[str]`); cudalearn, like CPython, does not check them at run time.

TYPE_CHECKING = False


def _type_repr(t):
    if isinstance(t, type):
        if t.__module__ == 'builtins':
            return t.__qualname__
        return f'{t.__module__}.{t.__qualname__}'
    if t is ...:
        return '...'
    if t is None:
        return 'None'
    if isinstance(t, list):
        return '[' + ', '.join(_type_repr(a) for a in t) + ']'
    return repr(t)


class _GenericAlias:
    __module__ = 'typing'

    def __init__(self, name, args):
        self._name = name
        self.__args__ = args

    def __repr__(self):
        if self._name == 'Optional':
            return f'typing.Optional[{_type_repr(self.__args__[0])}]'
        return f'typing.{self._name}[' + ', '.join(_type_repr(a) for a in self.__args__) + ']'

    def __eq__(self, other):
        return isinstance(other, _GenericAlias) and self._name == other._name and self.__args__ == other.__args__

    def __hash__(self):
        return hash((self._name, self.__args__))

    def __call__(self, *args, **kwargs):
        raise TypeError(f"Type {self._name} cannot be instantiated; use {self._name.lower()}() instead")


class _SpecialForm:
    __module__ = 'typing'

    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return 'typing.' + self._name

    def __getitem__(self, params):
        if not isinstance(params, tuple):
            params = (params,)
        params = tuple(type(None) if p is None else p for p in params)
        if self._name == 'Optional':
            if len(params) != 1:
                raise TypeError('typing.Optional requires a single type.')
            if params[0] is type(None):
                return type(None)
            return _GenericAlias('Optional', (params[0], type(None)))
        if self._name == 'Union':
            flat = []
            for p in params:
                if isinstance(p, _GenericAlias) and p._name in ('Union', 'Optional'):
                    items = p.__args__
                else:
                    items = (p,)
                for q in items:
                    if q not in flat:
                        flat.append(q)
            if len(flat) == 1:
                return flat[0]
            if len(flat) == 2 and type(None) in flat:
                other = flat[0] if flat[1] is type(None) else flat[1]
                return _GenericAlias('Optional', (other, type(None)))
            return _GenericAlias('Union', tuple(flat))
        return _GenericAlias(self._name, params)

    def __call__(self, *args, **kwargs):
        if self._name == 'Any':
            raise TypeError('Any cannot be instantiated')
        if self._name in ('List', 'Dict', 'Set', 'Tuple', 'FrozenSet'):
            raise TypeError(f'Type {self._name} cannot be instantiated; use {self._name.lower()}() instead')
        raise TypeError(f'Cannot instantiate typing.{self._name}')


Any = _SpecialForm('Any')
Optional = _SpecialForm('Optional')
Union = _SpecialForm('Union')
List = _SpecialForm('List')
Dict = _SpecialForm('Dict')
Tuple = _SpecialForm('Tuple')
Set = _SpecialForm('Set')
FrozenSet = _SpecialForm('FrozenSet')
Callable = _SpecialForm('Callable')
Iterable = _SpecialForm('Iterable')
Iterator = _SpecialForm('Iterator')
Sequence = _SpecialForm('Sequence')
Mapping = _SpecialForm('Mapping')
Type = _SpecialForm('Type')
Literal = _SpecialForm('Literal')
Generator = _SpecialForm('Generator')


class TypeVar:
    __module__ = 'typing'

    def __init__(self, name, *constraints, bound=None, covariant=False, contravariant=False):
        self.__name__ = name
        self.__constraints__ = constraints
        self.__bound__ = bound

    def __repr__(self):
        return '~' + self.__name__


def cast(typ, val):
    return val


def get_type_hints(obj):
    return dict(getattr(obj, '__annotations__', {}))


def NamedTuple(typename, fields=None, **kwargs):
    from collections import namedtuple
    if fields is None:
        fields = list(kwargs.items())
    return namedtuple(typename, [name for name, _ in fields])
