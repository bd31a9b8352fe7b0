"""Trial files of the wave-3 online program-induction request (``json/cPPP_K.json``):
``{"id": "cPPP", "program": "...", "data": [{"i": [...], "o": [...]}, ...]}``.

``detect`` says whether a text is one (by content, never by name), ``parse`` gives the typed
``model`` with spans, ``schedule`` the protocol a folder of them implies.
"""

from .detect import is_trial_file
from .model import Example, TrialFile
from .parse import TrialParse, parse

__all__ = ["Example", "TrialFile", "TrialParse", "is_trial_file", "parse"]
