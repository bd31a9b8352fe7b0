"""The package version, in the kit at the bottom of the house: reporters (linter), the sweep
cache (metrics) and the language server stamp it, and each may import only downward; importing
it from ``sylla`` itself would also make each of them part of a cycle with the lazy public API in
``sylla/__init__.py``. ``tests/kit/test_version.py`` keeps it equal to pyproject.toml's."""

__version__ = "0.1.0"
