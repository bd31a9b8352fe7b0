"""Trial files of the wave-3 online program-induction request (``json/cPPP_K.json``):
``{"id": "cPPP", "program": "...", "data": [{"i": [...], "o": [...]}, ...]}``.

``detect`` says whether a text is one (by content, never by name), ``parse`` gives the typed
``model`` with spans, ``schedule`` the protocol a folder of them implies.

The package imports nothing at import time (module ``__getattr__``): every lint asks
``detect`` whether a JSON file is a trial file, and that answer must not load the parser, its
lark grammar or the model (issue 24).
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .detect import is_trial_file as is_trial_file
    from .model import Example as Example
    from .model import TrialFile as TrialFile
    from .parse import TrialParse as TrialParse
    from .parse import parse as parse

__all__ = ["Example", "TrialFile", "TrialParse", "is_trial_file", "parse"]

_HOME = {"Example": ".model", "TrialFile": ".model", "TrialParse": ".parse", "is_trial_file": ".detect",
         "parse": ".parse"}


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(_HOME[name], __name__), name)


class _Package(types.ModuleType):
    """This package, keeping ``parse`` the function: importing the submodule ``parse`` sets
    the package's attribute of that name to the submodule, which the eager
    ``from .parse import parse`` used to rebind; with the lazy import it must not stick."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "parse" and isinstance(value, types.ModuleType):
            value = value.parse
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
