"""List-DSL programs past the limits of Python's own machinery (issue 38): parentheses nested
deeper than any recursion, integer and ``$n`` literals past the 4,300 digits ``int`` converts,
programs megabytes wide. Each is a ``DslError`` at its position in the program, from parsing,
typing, the prior and the evaluator alike; none raises anything else.

The property builds programs from the problems' own (docs/trials.md's worked examples and the
deliveries' shapes) and pushes one of them past a limit."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sylla.grammar.listdsl import DslError, parse_program
from sylla.grammar.listdsl.evaluate import run
from sylla.grammar.listdsl.parse import MAX_DEPTH, MAX_LENGTH
from sylla.grammar.listdsl.prior import nlp
from sylla.grammar.listdsl.types import check_program


def _error(text: str, max_int: int = 9) -> DslError:
    try:
        check_program(parse_program(text, max_int))
    except DslError as exc:
        assert 0 <= exc.start <= exc.end <= len(text), (exc.start, exc.end, len(text))
        return exc
    raise AssertionError(f"no error for {text[:80]}")


def test_nesting_past_the_limit_stops_at_the_parenthesis_that_goes_too_deep() -> None:
    text = "(lambda " + "(cons 1 " * 70_000 + "$0" + ")" * 70_001
    exc = _error(text)
    # "(lambda " opens level 1; the cons that opens level MAX_DEPTH + 1 is the MAX_DEPTH-th
    assert exc.start == len("(lambda ") + len("(cons 1 ") * (MAX_DEPTH - 1)
    assert "nest more than" in exc.message


def test_the_deepest_allowed_program_is_read_typed_scored_and_run() -> None:
    depth = MAX_DEPTH - 1  # the lambda is the first level
    expr = parse_program("(lambda " + "(cons 1 " * depth + "$0" + ")" * (depth + 1), 9)
    check_program(expr)
    assert nlp(expr, 9) > 0
    assert run(expr, (2,), 9) == (1,) * depth + (2,)


def test_integer_and_variable_literals_past_the_digit_limit_are_range_errors() -> None:
    exc = _error("(lambda (cons 1" + "2" * 5000 + " $0))")
    assert exc.kind == "range" and (exc.start, exc.end) == (14, 14 + 5001) and "5,001 digits" in exc.message
    exc = _error("(lambda $" + "1" * 5000 + ")")
    assert exc.kind == "scope" and (exc.start, exc.end) == (8, 8 + 5001) and len(exc.message) < 200


def test_a_program_wider_than_the_limit_is_refused_before_the_parse() -> None:
    text = "(lambda ($0 " + "1 " * 500_000 + "))"
    exc = _error(text)
    assert exc.start == MAX_LENGTH and "characters" in exc.message


def _pushed() -> st.SearchStrategy[str]:
    """A program of the problems' shapes pushed past one limit."""
    inner = st.sampled_from(["$0", "(tail $0)", "(cons 7 $0)", "(if (is_empty $0) empty (tail $0))"])

    def deep(body: str, wrapper: str, depth: int) -> str:
        open_, close = {"cons": ("(cons 1 ", ")"), "tail": ("(tail ", ")"), "if": ("(if true ", " $0)"),
                        "lambda": ("((lambda ", " $0)")}[wrapper]
        return "(lambda " + open_ * depth + body + close * depth + ")"

    def long_literal(body: str, digits: int, var: bool) -> str:
        return f"(lambda (cons {'$' if var else ''}{'9' * digits} {body}))"

    def wide(body: str, width: int) -> str:
        return f"(lambda ($0 {' '.join([body] * width)}))"

    return st.one_of(
        st.builds(deep, inner, st.sampled_from(["cons", "tail", "if", "lambda"]),
                  st.one_of(st.integers(MAX_DEPTH, MAX_DEPTH + 5), st.integers(900, 1100), st.integers(20_000, 70_000))),
        st.builds(long_literal, inner, st.one_of(st.integers(21, 60), st.integers(4_290, 4_310), st.integers(10_000, 19_000)),
                  st.booleans()),
        st.builds(wide, inner, st.integers(2, 100_000)),
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(_pushed(), st.sampled_from([9, 99]))
def test_a_program_past_a_limit_is_an_error_at_a_position_never_a_traceback(text: str, max_int: int) -> None:
    _error(text, max_int)
