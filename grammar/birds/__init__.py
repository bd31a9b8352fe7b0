"""Science Birds trial configs: ``configMeta.xml`` (``<config_generation>``) and the generated
``config.xml`` (``<evaluation>``), the second language sylla reads.

- ``parse(data, path) -> BirdsParse`` (model with spans, diagnostics)
- ``birds_kind(data) -> "meta" | "generated" | None`` (by root element)
- ``explain(model) -> dict`` and ``render_text(doc)`` for ``configMeta.xml``
- ``schema_path(kind)``: the shipped XSD 1.0 files for editors
- ``describe.describe(result, offset)`` / ``describe.vocabulary(kind)``: hover text with the
  computed counts, and the elements/attributes/values each element allows (for completion)

The linter reads this language through its descriptor, ``sylla.linter.birds.BIRDS`` (parse,
rule context, explain), which ``sylla.linter.languages`` lists; every language's entry point
is ``sylla.linter.languages.lint_text``.

The package imports nothing at import time (module ``__getattr__``, as ``sylla.metrics``
does): every lint asks ``detect`` whether a file is a Science Birds config, and that answer
must not load the parser and the typed model (issue 24).
"""

from __future__ import annotations

from sylla.kit.lazy_package import lazy_names
from sylla.kit.no_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .detect import birds_kind as birds_kind
    from .parse import BirdsParse as BirdsParse
    from .parse import parse as parse
    from .schema import schema_path as schema_path

__all__ = ["BirdsParse", "birds_kind", "parse", "schema_path"]

_HOME = {"BirdsParse": ".parse", "birds_kind": ".detect", "parse": ".parse", "schema_path": ".schema"}


__getattr__ = lazy_names(__name__, _HOME)
