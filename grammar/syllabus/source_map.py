"""Positions of every value and key, found by JSON path.

The parser records exact positions for containers its rules parse, and only the outer span
of a container it lexed whole (a shallow object such as one instruction). When a caller asks
for a position inside such a container, the source map parses just that range again with the
whole-container terminals switched off and caches the result, so exact positions cost
nothing until somebody needs them.
"""

from __future__ import annotations

from sylla.grammar.core import Span
from sylla.grammar.syllabus.lalr import Item, Node, Tok, parse_range
from sylla.kit.no_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Iterable

Path = tuple[str | int, ...]


class SourceMap:
    __slots__ = ("text", "root", "_expanded")

    def __init__(self, text: str, root: Item | None) -> None:
        self.text = text
        self.root = root
        self._expanded: dict[int, Item | None] = {}

    def expand(self, item: Item) -> Item:
        """The item with inner positions: a whole-lexed container is parsed again exactly."""
        if item.__class__ is Tok and item.type in ("SHALLOW_OBJECT", "SHALLOW_ARRAY"):
            node = self._expanded.get(item.start)
            if node is None:
                node = parse_range(self.text, item.start, item.end, exact=True).root
                self._expanded[item.start] = node
            return node if node is not None else item
        return item

    def item(self, path: Iterable[str | int]) -> Item | None:
        node = self.root
        for step in path:
            if node is None:
                return None
            node = self.expand(node)
            if node.__class__ is not Node:
                return None
            children = node.children
            if isinstance(children, dict):
                node = children.get(step) if isinstance(step, str) else None
            else:
                node = children[step] if isinstance(step, int) and 0 <= step < len(children) else None
        return node

    def span(self, path: Iterable[str | int]) -> Span | None:
        """Span of the value at ``path`` (None when there is no such value)."""
        node = self.item(path)
        return None if node is None else Span(node.start, node.end)

    def key_span(self, path: Path) -> Span | None:
        """Span of the key (with its quotes) whose value is at ``path``."""
        if not path or not isinstance(path[-1], str):
            return None
        parent = self.item(path[:-1])
        if parent is None:
            return None
        parent = self.expand(parent)
        if parent.__class__ is not Node or not parent.keys:
            return None
        key = parent.keys.get(path[-1])
        return None if key is None else Span(key.start, key.end)

    def children(self, path: Path) -> list[Item] | dict[str, Item] | None:
        node = self.item(path)
        if node is None:
            return None
        node = self.expand(node)
        return node.children if node.__class__ is Node else None
