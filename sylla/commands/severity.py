"""``--fail-on`` levels, shared by ``sylla lint`` and its delivery mode (``trials_cli``).

Apart from ``lint.py`` because ``lint.py`` hands delivery folders to ``trials_cli``: the rank
sits below both so neither imports the other for it.
"""

SEVERITY_RANK = {"info": 0, "warning": 1, "error": 2}
