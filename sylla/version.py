"""The package version, in a module of its own: reporters, the language server and the sweep
cache stamp it, and importing it from ``sylla`` itself would make each of them part of a cycle
with the lazy public API in ``sylla/__init__.py``."""

__version__ = "0.1.0"
