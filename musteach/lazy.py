"""Modules loaded on first use, so that a lesson page imports only what it runs.

A visitor's kernel holds one process per page: numpy alone adds about 20 MiB to it, while most lessons never
count a deal in bulk. :func:`lazy_module` stands for a module until one of its names is first read, and only
then imports it (through the import system, so its own locks keep threads safe).

>>> np = lazy_module("numpy")
>>> int(np.arange(4).sum())  # numpy is imported here
6
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType
from typing import Any

__all__ = ["lazy_module"]


class _OnFirstUse(ModuleType):
    """A stand-in for a module: reading a name imports the module, and the name is kept for the next time."""

    def __getattr__(self, attr: str) -> Any:
        value = getattr(importlib.import_module(self.__name__), attr)
        setattr(self, attr, value)
        return value


def lazy_module(name: str) -> ModuleType:
    """A stand-in for the module ``name`` that imports it when one of its names is first read.

    Use it as ``np = lazy_module("numpy")`` (with ``import numpy as np`` under ``TYPE_CHECKING`` for the types).
    Raises :class:`ModuleNotFoundError` at once when no such module is installed (checked without importing it).
    """
    if importlib.util.find_spec(name) is None:
        raise ModuleNotFoundError(f"no module named {name!r}", name=name)
    return _OnFirstUse(name)
