"""The keyword arguments an environment's constructor takes, read from its signature."""

from __future__ import annotations

from typing import Any, Callable


def constructor_args(factory: Callable[..., Any]) -> tuple[list[str], bool]:
    """The keyword arguments a class or function takes, and whether it takes any keyword at all
    (a function's ``**kwargs``). A class's ``**kwargs`` are followed up its MRO: MiniGrid's
    ``EmptyEnv(size, ..., **kwargs)`` hands ``max_steps``, ``agent_view_size``, ... on to
    ``MiniGridEnv``. A base's argument that the subclass sets itself in its
    ``super().__init__(...)`` call (``grid_size``, ``see_through_walls`` for ``EmptyEnv``), or
    that has no default (the subclass must supply it), is not the user's to give."""
    import inspect  # noqa: PLC0415 - lazy: start-up, inspect loads only when a constructor is read

    if isinstance(factory, type):
        chain = [vars(c)["__init__"] for c in factory.__mro__ if "__init__" in vars(c) and c is not object]
    else:
        chain = [factory]
    names: list[str] = []
    taken: set[str] = set()
    for i, fn in enumerate(chain):
        try:
            sig = inspect.signature(fn)
        except (TypeError, ValueError):
            return names, True
        passes_on = False
        for p in sig.parameters.values():
            if p.kind is p.VAR_KEYWORD:
                passes_on = True
            elif p.name == "self" or p.kind in (p.POSITIONAL_ONLY, p.VAR_POSITIONAL):
                continue
            elif (i == 0 or p.default is not p.empty) and p.name not in taken and p.name not in names:
                names.append(p.name)
        if not passes_on:
            return names, False
        taken |= super_keywords(fn)
    return names, not isinstance(factory, type)


def super_keywords(fn: Callable[..., Any]) -> set[str]:
    """The keywords an ``__init__`` passes by name in its ``super().__init__(...)`` calls."""
    import ast  # noqa: PLC0415 - lazy: only when a constructor is read
    import inspect  # noqa: PLC0415 - lazy: only when a constructor is read
    import textwrap  # noqa: PLC0415 - lazy: only when a constructor is read

    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):
        return set()
    found: set[str] = set()
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "__init__"
                and isinstance(node.func.value, ast.Call) and isinstance(node.func.value.func, ast.Name)
                and node.func.value.func.id == "super"):
            found |= {k.arg for k in node.keywords if k.arg is not None}
    return found
