"""One way for a package to load its names on first use (issue 24: every lint asks the Science
Birds and wave-3 packages whether a file is theirs, and that answer must not load their parsers).

``lazy_names(__name__, {"parse": ".parse", ...})`` returns the package's module ``__getattr__``.
It also keeps a name that is both a function and its submodule (``parse`` in ``parse.py``)
bound to the function: importing the submodule sets the package attribute of that name to the
submodule, which an eager ``from .parse import parse`` used to rebind afterwards.
"""

from __future__ import annotations

import importlib
import sys
import types

from sylla.kit.no_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Callable, Mapping


class _LazyPackage(types.ModuleType):
    """A package whose same-named function wins over its submodule (see the module docstring)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, types.ModuleType) and value.__name__ == f"{self.__name__}.{name}" and hasattr(value, name):
            value = getattr(value, name)
        super().__setattr__(name, value)


def lazy_names(package: str, home: Mapping[str, str]) -> Callable[[str], Any]:
    """The ``__getattr__`` of ``package``: each name in ``home`` is imported from its relative
    module when first asked for."""
    sys.modules[package].__class__ = _LazyPackage

    def __getattr__(name: str) -> Any:
        if name not in home:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(home[name], package), name)

    return __getattr__
