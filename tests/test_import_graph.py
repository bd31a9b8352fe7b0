"""sylla's modules import each other one way, down the layers ARCHITECTURE.md names:

    kit < language core < languages < metrics < linter < runner < lsp < commands

An import inside a function still runs, only later, so an upward arrow or a cycle hidden that
way is still one: the graph here holds module-level AND function-level imports (only ``if
TYPE_CHECKING:`` blocks, which never run, are left out). A module that imports an upper layer,
or two modules that need each other, fail this test with the arrow or the cycle printed; the
fix is to move the shared piece down a layer.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# the real folders behind sylla/'s links (see pyproject.toml)
ROOTS = {"sylla": REPO / "sylla", "sylla.grammar": REPO / "grammar", "sylla.linter": REPO / "linter",
         "sylla.lsp": REPO / "lsp", "sylla.metrics": REPO / "metrics", "sylla.kit": REPO / "kit"}


def modules() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its ``__init__``)."""
    found: dict[str, Path] = {}
    for prefix, root in ROOTS.items():
        for path in root.rglob("*.py"):
            rel = path.relative_to(root).with_suffix("").parts
            if rel and rel[0] in {"grammar", "linter", "lsp", "metrics", "docs", "kit"} and prefix == "sylla":
                continue  # the links themselves: read through their real folder
            parts = rel[:-1] if rel[-1] == "__init__" else rel
            found[".".join((prefix, *parts))] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement that can run: module level, in functions, not under TYPE_CHECKING."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def graph() -> dict[str, set[str]]:
    """module -> the sylla modules it imports (the most specific module each import names)."""
    mods = modules()
    edges: dict[str, set[str]] = {name: set() for name in mods}
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")
                    anchor = anchor[: len(anchor) - node.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in mods else base for alias in node.names]
            for target in targets:
                while target and target not in mods:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    edges[name].add(target)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each strongly connected component of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return [_one_cycle(edges, set(c)) for c in components]


def _one_cycle(edges: dict[str, set[str]], component: set[str]) -> list[str]:
    """A shortest cycle inside one component, as the modules in import order."""
    start = min(component)
    paths = {start: [start]}
    queue = [start]
    for v in queue:
        for w in sorted(edges[v] & component):
            if w == start:
                return [*paths[v], start] + ([f"(+{len(component) - len(paths[v])} more in the loop)"]
                                              if len(component) > len(paths[v]) else [])
            if w not in paths:
                paths[w] = [*paths[v], w]
                queue.append(w)
    return sorted(component)


#: the layers from the bottom up, each by the module prefixes it holds (the longest prefix wins:
#: ``sylla.grammar.core`` is the language core, the rest of ``sylla.grammar`` the languages, and
#: ``sylla`` itself the commands: ``sylla.cli``, ``sylla.commands``, the public API)
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("kit", ("sylla.kit",)),
    ("language core", ("sylla.grammar.core",)),
    ("languages", ("sylla.grammar",)),
    ("metrics", ("sylla.metrics",)),
    ("linter", ("sylla.linter",)),
    ("runner", ("sylla.runner",)),
    ("lsp", ("sylla.lsp",)),
    ("commands", ("sylla",)),
)

def layer_of(module: str) -> int:
    """The index in ``LAYERS`` of the layer holding ``module``."""
    best, rank = -1, -1
    for i, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, rank = len(prefix), i
    assert rank >= 0, f"{module} is in no layer: add its room to LAYERS and to ARCHITECTURE.md"
    return rank


def upward_imports(edges: dict[str, set[str]]) -> list[str]:
    """Every arrow from a module to a module of a higher layer, as ``a -> b (low < high)``."""
    return [
        f"{a} -> {b} ({LAYERS[layer_of(a)][0]} imports {LAYERS[layer_of(b)][0]})"
        for a in sorted(edges) for b in sorted(edges[a])
        if layer_of(b) > layer_of(a)
    ]


def test_no_upward_imports() -> None:
    found = upward_imports(graph())
    assert not found, "imports from a higher layer (move the shared piece down):\n" + "\n".join(found)


def test_the_layer_check_fails_on_an_upward_import_inside_a_function() -> None:
    source = "def f():\n    if True:\n        from sylla.linter.engine import run\n"
    found = [n.module for n in _imports(ast.parse(source)) if isinstance(n, ast.ImportFrom)]
    assert found == ["sylla.linter.engine"]
    edges = {"sylla.grammar.syllabus.parse": {"sylla.linter.engine"}, "sylla.linter.engine": set()}
    assert upward_imports(edges) == [
        "sylla.grammar.syllabus.parse -> sylla.linter.engine (languages imports linter)"]


def test_the_layers_are_the_ones_architecture_md_names() -> None:
    text = (REPO / "ARCHITECTURE.md").read_text(encoding="utf-8")
    assert " < ".join(name for name, _ in LAYERS) in text


def test_graph_sees_the_package() -> None:
    edges = graph()
    assert "sylla.linter.engine" in edges and "sylla.cli" in edges
    assert "sylla.grammar.syllabus.parse" in edges["sylla.linter.engine"] or any(
        e.startswith("sylla.grammar") for e in edges["sylla.linter.engine"])


def test_no_import_cycles() -> None:
    found = cycles(graph())
    assert not found, "import cycles:\n" + "\n".join(" -> ".join(c) for c in found)


def private_imports() -> list[str]:
    """``from X import _name`` where X is another sylla module (ruff's PLC2701 skips first-party
    imports): a name with a leading underscore is its module's own business."""
    mods = modules()
    found = []
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if not isinstance(node, ast.ImportFrom):
                continue
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            if not base.startswith("sylla"):
                continue
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__") and base != name:
                    found.append(f"{path.relative_to(REPO)}:{node.lineno}: {name} imports {base}.{alias.name}")
    return found


def test_no_private_imports_across_modules() -> None:
    found = private_imports()
    assert not found, "private names imported from another module:\n" + "\n".join(found)
