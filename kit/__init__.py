"""sylla's runtime kit: the small pieces every room stands on and that know nothing of any
language, linter or metric.

- ``record``: the value classes of the lint path (a small dataclass, compiled once and cached);
- ``no_typing``: what the lint path takes from ``typing`` without importing it;
- ``cache``, ``code_cache``, ``regex_cache``, ``digest``, ``sorted_lines``: the cache directory and
  what is kept in it (compiled ``__init__``s, regex programs, sorted digest files);
- ``lazy_package``, ``gc_pause``: start-up and allocation helpers;
- ``atomic``: the one way sylla replaces a file;
- ``suggest``: "did you mean" for misspelt names;
- ``config_file``: where the config (``sylla.toml`` / ``[tool.sylla]``) is and a key's line in it.

The kit is the bottom layer (``tests/test_import_graph.py``): it imports nothing else of sylla.
"""
