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


# NamedTuple as CPython 3.11's typing.py writes it: a function for the call form, and, through
# `__mro_entries__`, the base `_NamedTuple` for the class form, whose metaclass __new__ (here
# the `__cudalearn_metaclass_new__` hook, cudalearn having no metaclasses) turns the class
# body's annotations into a collections.namedtuple class.

_prohibited = {'__new__', '__init__', '__slots__', '__getnewargs__',
               '_fields', '_field_defaults',
               '_make', '_replace', '_asdict', '_source'}

_special = {'__module__', '__name__', '__annotations__'}


def _make_nmtuple(name, types, module, defaults=()):
    from collections import namedtuple
    fields = [n for n, t in types]
    nm_tpl = namedtuple(name, fields, defaults=defaults, module=module)
    nm_tpl.__annotations__ = dict(types)
    return nm_tpl


def _namedtuple_meta_new(typename, bases, ns):
    # NamedTupleMeta.__new__
    for base in bases:
        if base is not _NamedTuple:
            raise TypeError('can only inherit from a NamedTuple type and Generic')
    types = ns.get('__annotations__', {})
    default_names = []
    for field_name in types:
        if field_name in ns:
            default_names.append(field_name)
        elif default_names:
            raise TypeError(f"Non-default namedtuple field {field_name} "
                            f"cannot follow default field"
                            f"{'s' if len(default_names) > 1 else ''} "
                            f"{', '.join(default_names)}")
    nm_tpl = _make_nmtuple(typename, types.items(),
                           defaults=[ns[n] for n in default_names],
                           module=ns['__module__'])
    # update from user namespace without overriding special namedtuple attributes
    for key in ns:
        if key in _prohibited:
            raise AttributeError("Cannot overwrite NamedTuple attribute " + key)
        elif key not in _special and key not in nm_tpl._fields:
            setattr(nm_tpl, key, ns[key])
    return nm_tpl


def NamedTuple(typename, fields=None, /, **kwargs):
    if fields is None:
        fields = kwargs.items()
    elif kwargs:
        raise TypeError("Either list of fields or keywords"
                        " can be provided to NamedTuple, not both")
    return _make_nmtuple(typename, fields, module='__main__')


class _NamedTuple:
    __cudalearn_metaclass_new__ = _namedtuple_meta_new


def _namedtuple_mro_entries(bases):
    return (_NamedTuple,)


NamedTuple.__mro_entries__ = _namedtuple_mro_entries
