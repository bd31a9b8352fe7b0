"""'Did you mean' suggestions: one implementation, in ``sylla.grammar.suggest`` (the Science
Birds schema messages use it too, and the core must not import the linter); the rules import
it from here."""

from sylla.grammar.suggest import closest, did_you_mean

__all__ = ["closest", "did_you_mean"]
