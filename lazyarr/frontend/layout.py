"""The memory layout NumPy code asks an array about, for a Tensor: `strides` (bytes), `flags` (C_CONTIGUOUS,
F_CONTIGUOUS, OWNDATA, WRITEABLE, ...) and the memory order `flatten('K')` reads in.

A tensor that is a strided view of its storage (a realised buffer, or one with pending writes) reports that layout,
as `np.asarray(t, copy=False)` would show it; any other tensor (a lazy value, a padded view) reports the C order of
its shape, the layout computing it or `np.asarray(t)` gives. Nothing here computes a tensor.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lazyarr.frontend.inplace import chain_in_array, is_owner, is_writable
from lazyarr.graph.ops import Ops
from lazyarr.graph.schedule import chain_view, strip_movement
from lazyarr.helpers import prod

if TYPE_CHECKING:
    from lazyarr.frontend.tensor import Tensor


def element_strides(t: Tensor) -> tuple[int, ...]:
    """t's strides in elements over its storage when it is a strided view of it, else C order's. A size-1 dim takes
    C order's stride, and an empty tensor all zeros, as a new NumPy array has them (lazyarr's views keep no stride
    there; a NumPy view keeps its base's, which any stride may stand for)."""
    if t.size == 0:
        return (0,) * t.ndim
    c_order = tuple(prod(t.shape[i + 1 :]) for i in range(t.ndim))
    chain, base = strip_movement(t.uop)
    view = chain_view(chain, base.shape) if base.op in (Ops.BUFFER, Ops.ASSIGN) else None
    if view is None or view.mask is not None:
        return c_order
    return tuple(c if n == 1 else s for n, s, c in zip(t.shape, view.strides, c_order))


def byte_strides(t: Tensor) -> tuple[int, ...]:
    """`ndarray.strides` of `t`: bytes to step along each dim (see the module docstring for which layout)."""
    return tuple(s * t.dtype.itemsize for s in element_strides(t))


def _contiguous(shape: tuple[int, ...], strides: tuple[int, ...]) -> bool:
    """NumPy's test: the dims of size > 1 step as a dense C-ordered block does (an empty array always is)."""
    if 0 in shape:
        return True
    expected = 1
    for n, s in zip(reversed(shape), reversed(strides)):
        if n != 1 and s != expected:
            return False
        expected *= n
    return True


def c_contiguous(t: Tensor) -> bool:
    """`t.flags.c_contiguous`, without the other flags."""
    return _contiguous(t.shape, element_strides(t))


def dense_in_array(t: Tensor) -> bool:
    """Whether `t` reads a C-contiguous block of its array: of its storage (`c_contiguous`), or, for a view of an
    array with no storage yet (a lazy value, which is stored in C order), of that value. NumPy's ravel views only such
    a block, so `(x + 0)[::2].ravel()` must be a copy although the lazy view reports C order."""
    base = strip_movement(t.uop)[1]
    g = t._group
    chain = None if g is None else chain_in_array(t.uop, g.base)  # g.base may itself be a view (of a constant)
    if base.op in (Ops.BUFFER, Ops.ASSIGN) or not chain or t.size == 0:
        return c_contiguous(t)
    view = chain_view(chain, g.base.shape)
    if view is None or view.mask is not None:
        return False
    return _contiguous(t.shape, view.strides)


def memory_order(t: Tensor) -> tuple[int, ...]:
    """t's dims from the largest stride in magnitude to the smallest, as NumPy's iterator orders them for 'K': an
    insertion sort in which a stride of 0 (a broadcast dim) compares with nothing, so it keeps its place. Each dim is
    then walked in its own direction (negative strides are not reversed)."""
    size = [abs(s) for s in element_strides(t)]
    perm = list(range(t.ndim))
    for i in range(1, t.ndim):
        d, pos = perm[i], i
        for j in range(i - 1, -1, -1):
            if size[d] and size[perm[j]]:
                if size[d] <= size[perm[j]]:
                    break
                pos = j
        perm.insert(pos, perm.pop(i))
    return tuple(perm)


def order_axes(t: Tensor, order: Any) -> tuple[int, ...]:
    """The permutation of t's dims whose C-order reading is the index order `order` of NumPy's ravel/flatten: 'C'
    (or None) row-major, 'F' column-major, 'A' 'F' for an F- but not C-contiguous tensor else 'C', 'K' the memory
    order (`memory_order`); any case.

    Raises:
        TypeError: an order that is not a str or None. ValueError: another string (NumPy's message).
    """
    if order is None:
        return tuple(range(t.ndim))
    if not isinstance(order, str):
        raise TypeError(f"order must be str, not {type(order).__name__}")
    key = order.upper()
    if key == "A":
        flags = Flags(t)
        key = "F" if flags.f_contiguous and not flags.c_contiguous else "C"
    if key == "C":
        return tuple(range(t.ndim))
    if key == "F":
        return tuple(range(t.ndim))[::-1]
    if key == "K":
        return memory_order(t)
    raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got '{order}')")


class Flags:
    """`ndarray.flags` of a Tensor, read when asked for: attributes (`c_contiguous`, `writeable`, ...) and NumPy's
    keys (`flags['C_CONTIGUOUS']`, `flags['C']`, ...). Read-only: a tensor's layout and writability are not set
    through it (AttributeError).

    C_CONTIGUOUS / F_CONTIGUOUS: the layout of the module docstring. WRITEABLE: False for a broadcast view and a
    read-only array (np.diagonal's result) or its views. OWNDATA: False for a view of another tensor's array.
    ALIGNED: True; WRITEBACKIFCOPY: False.
    """

    __slots__ = ("c_contiguous", "f_contiguous", "owndata", "writeable")

    def __init__(self, t: Tensor) -> None:
        strides = element_strides(t)
        set_ = object.__setattr__
        set_(self, "c_contiguous", _contiguous(t.shape, strides))
        set_(self, "f_contiguous", _contiguous(t.shape[::-1], strides[::-1]))
        set_(self, "owndata", is_owner(t))
        set_(self, "writeable", is_writable(t))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a lazyarr Tensor's flags are read-only (setting {name!r})")

    aligned = True
    writebackifcopy = False

    @property
    def contiguous(self) -> bool:
        return self.c_contiguous

    @property
    def fortran(self) -> bool:
        return self.f_contiguous

    @property
    def fnc(self) -> bool:
        return self.f_contiguous and not self.c_contiguous

    @property
    def forc(self) -> bool:
        return self.f_contiguous or self.c_contiguous

    @property
    def behaved(self) -> bool:
        return self.writeable

    @property
    def carray(self) -> bool:
        return self.writeable and self.c_contiguous

    @property
    def farray(self) -> bool:
        return self.writeable and self.f_contiguous and not self.c_contiguous

    def __getitem__(self, key: str) -> bool:
        """NumPy's flag names and one-letter abbreviations; KeyError for others, as NumPy."""
        name = _KEYS.get(key)
        if name is None:
            raise KeyError("Unknown flag")
        return bool(getattr(self, name))

    def __repr__(self) -> str:
        names = ("C_CONTIGUOUS", "F_CONTIGUOUS", "OWNDATA", "WRITEABLE", "ALIGNED", "WRITEBACKIFCOPY")
        return "".join(f"  {n} : {self[n]}\n" for n in names)


_KEYS = {"C_CONTIGUOUS": "c_contiguous", "C": "c_contiguous", "CONTIGUOUS": "c_contiguous",
         "F_CONTIGUOUS": "f_contiguous", "F": "f_contiguous", "FORTRAN": "f_contiguous", "OWNDATA": "owndata",
         "O": "owndata", "WRITEABLE": "writeable", "W": "writeable", "ALIGNED": "aligned", "A": "aligned",
         "WRITEBACKIFCOPY": "writebackifcopy", "X": "writebackifcopy", "FNC": "fnc", "FORC": "forc",
         "BEHAVED": "behaved", "B": "behaved", "CARRAY": "carray", "CA": "carray", "FARRAY": "farray", "FA": "farray"}
