"""``BirdsContext``: what a B8xx rule sees of a Science Birds config.

Apart from ``birds.py`` (the Science Birds lint pipeline, which runs the rules) so that the
rules import their context from below the pipeline and the registry (issue 28: no cycles).
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass

from sylla.grammar.birds.detect import birds_kind
from sylla.grammar.birds.model import BirdsConfig, GeneratedConfig, MetaConfig
from sylla.grammar.birds.parse import BirdsParse, parse

from .document_context import DocumentContext


@dataclass
class BirdsContext(DocumentContext[BirdsParse, BirdsConfig]):
    """What a B8xx rule sees: the parse, the model, the config, the file's path."""

    @property
    def meta(self) -> MetaConfig | None:
        return self.model if isinstance(self.model, MetaConfig) else None

    @property
    def generated(self) -> GeneratedConfig | None:
        return self.model if isinstance(self.model, GeneratedConfig) else None

    @functools.cached_property
    def sibling_meta(self) -> MetaConfig | None:
        """The configMeta.xml this config.xml was generated from: the file in the same folder
        whose root is ``<config_generation>`` (``configMeta.xml`` wins if there are several)."""
        if self.path is None or not os.path.isfile(self.path):
            return None
        return find_sibling_meta(self.path)


def find_sibling_meta(path: str) -> MetaConfig | None:
    folder = os.path.dirname(os.path.abspath(path))
    found: list[str] = []
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return None
    for name in names:
        full = os.path.join(folder, name)
        if not name.lower().endswith(".xml") or not os.path.isfile(full):
            continue
        try:
            with open(full, "rb") as fh:
                head = fh.read(65536)
                kind = birds_kind(head)
                if kind is None and len(head) == 65536:  # a root behind a long prolog: read on
                    kind = birds_kind(head + fh.read())
        except OSError:
            continue
        if kind == "meta":
            found.append(full)
    if not found:
        return None
    chosen = next((f for f in found if os.path.basename(f) == "configMeta.xml"), found[0] if len(found) == 1 else None)
    if chosen is None:
        return None
    try:
        with open(chosen, "rb") as fh:
            result = parse(fh.read(), chosen, schema=False)
    except OSError:
        return None
    return result.model if isinstance(result.model, MetaConfig) else None
