"""The fuzz harnesses: structure-aware mutations of real inputs and the properties sylla keeps on
them, one module per family (``syllabus``, ``birds``, ``readers``).

Shared by the bounded property tests (hypothesis, under ``tests/``) and the long campaigns
(``bench/fuzz.py``, ``bench/reader_fuzz.py``), so both check the same things. They are test code,
so they live here and not in the package: the wheel ships no harness (``tests/test_packaging.py``
checks it). Imported as ``fuzzing.<family>``: pytest puts ``tests/`` on the import path, the
benches add it themselves.
"""
