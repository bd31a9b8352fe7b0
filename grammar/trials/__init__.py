"""Trial files of the wave-3 online program-induction request (``json/cPPP_K.json``):
``{"id": "cPPP", "program": "...", "data": [{"i": [...], "o": [...]}, ...]}``.

``detect`` says whether a text is one (by content, never by name), ``parse`` gives the typed
``model`` with spans, ``schedule`` the protocol a folder of them implies. The linter reads the
language through its descriptor, ``sylla.linter.trials.TRIALS``.

The package imports nothing at import time (module ``__getattr__``): every lint asks
``detect`` whether a JSON file is a trial file, and that answer must not load the parser, its
lark grammar or the model (issue 24).
"""

from __future__ import annotations

from sylla.kit.lazy_package import lazy_names
from sylla.kit.no_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .detect import is_trial_file as is_trial_file
    from .model import Example as Example
    from .model import TrialFile as TrialFile
    from .parse import TrialParse as TrialParse
    from .parse import parse as parse

__all__ = ["Example", "TrialFile", "TrialParse", "is_trial_file", "parse"]

_HOME = {"Example": ".model", "TrialFile": ".model", "TrialParse": ".parse", "is_trial_file": ".detect",
         "parse": ".parse"}


__getattr__ = lazy_names(__name__, _HOME)
