"""The list-routines DSL of the wave-3 online trials (``wave3-list-dsl.md``).

``listdsl.lark`` is the grammar; ``parse`` gives the typed syntax tree with spans (``ast``),
``types`` the Hindley-Milner checker, ``evaluate`` the step-bounded evaluator, ``prior`` the
request's negative log prior and ``likelihood`` its negative log likelihood.
"""

from .ast import App, Expr, Int, Lam, Prim, Var
from .errors import DslError
from .parse import parse_program

__all__ = ["App", "DslError", "Expr", "Int", "Lam", "Prim", "Var", "parse_program"]
