"""`__array_namespace_info__()`: what the namespace supports (devices, default dtypes, dtypes by kind)."""

from __future__ import annotations

from typing import Any

from lazyarr import dtypes
from lazyarr.array_api._dtypes import KINDS
from lazyarr.kernels.device import DEVICES


class Info:
    """The array API inspection object."""

    def capabilities(self) -> dict[str, Any]:
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": None}

    def default_device(self) -> str:
        return "CPU"

    def default_dtypes(self, *, device: Any = None) -> dict[str, Any]:
        return {"real floating": dtypes.default_float, "complex floating": None, "integral": dtypes.default_int,
                "indexing": dtypes.int64}

    def devices(self) -> list[str]:
        return list(DEVICES)

    def dtypes(self, *, device: Any = None, kind: Any = None) -> dict[str, Any]:
        """Supported dtypes by name, optionally only those of `kind` (a kind name or a tuple of them)."""
        if kind is None:
            chosen = [dtypes.bool_, *KINDS["numeric"]]
        else:
            kinds = kind if isinstance(kind, tuple) else (kind,)
            chosen = [d for k in kinds for d in (KINDS[k] if isinstance(k, str) else (dtypes.to_dtype(k),))]
        return {d.name: d for d in chosen}


def __array_namespace_info__() -> Info:  # noqa: N807 - the standard's name
    return Info()
