# %% annotated_function
from typing import List, Dict, Optional, Tuple
def f(xs: List[int], m: Optional[Dict[str, int]] = None) -> Tuple[int, ...]:
    return tuple(xs)
print(f([1, 2]))
# %% reprs
from typing import List, Dict, Optional, Tuple, Union, Any, Callable
print(List[int], Optional[str], Dict[str, List[int]])
print(Union[int, str], Any, Callable[[int], str], Union[int, None])
# %% tuple_ellipsis
from typing import Tuple
print(Tuple[int, ...], Tuple[int, str])
# %% optional_of_none
from typing import Optional, Union
print(Optional[None], Union[int], Union[int, int, str])
# %% union_flatten
from typing import Union, Optional
print(Union[int, Union[str, float]], Union[Optional[int], str])
# %% builtin_generics
print(list[int], dict[str, int], tuple[int, ...])
# %% class_annotations
from typing import List
class Model:
    layers: List[int]
    name: str = 'm'
print(Model.__annotations__)
# %% typevar
from typing import TypeVar, List
T = TypeVar('T')
def first(xs: List[T]) -> T:
    return xs[0]
print(T, first([3, 4]))
# %% cast
from typing import cast, List
print(cast(List[int], [1, 2]))
# %% type_checking
from typing import TYPE_CHECKING
if TYPE_CHECKING:
    import nothing_at_all
print(TYPE_CHECKING)
# %% literal
from typing import Literal
print(Literal['sum', 'mean'])
# %% iterable_sequence
from typing import Iterable, Iterator, Sequence
def total(xs: Iterable[float]) -> float:
    return sum(xs)
print(total([1.5, 2.5]), Iterable[float], Sequence[int], Iterator[str])
# %% generic_cannot_instantiate
from typing import List
List()
# %% alias_equality
from typing import List, Dict
print(List[int] == List[int], List[int] == List[str], Dict[str, int] == Dict[str, int])
# %% any_cannot_instantiate
from typing import Any
Any()
# %% future_import
from __future__ import annotations, division
import __future__
print(__future__.division, 7 / 2)
def f(x: int) -> int:
    return x + 1
print(f(1))
