"""S1xx: syntax and encoding problems the language core reports, one rule per class.

These rules have no check of their own: the parser finds the problem and the engine reports
it under the rule whose ``kinds`` name the diagnostic. The documentation lives here.
"""

from __future__ import annotations

from sylla.grammar.core import Severity

from ..rule import Rule, rule_doc


class InvalidSyntax(Rule):
    code, name, severity, kinds = "S101", "invalid-syntax", Severity.ERROR, ("syntax",)
    __doc__ = rule_doc(
        "The text is not valid JSON: a missing comma, colon or bracket.",
        "Every place where the parser expected a comma, colon, bracket or value and found something else.",
        '{"instructions": [\n  {"$phase": "1.train"}\n  {"$repeat": {"$episode": "Pong"}, "count": 5000}\n]}',
        '{"instructions": [\n  {"$phase": "1.train"},\n  {"$repeat": {"$episode": "Pong"}, "count": 5000}\n]}',
        "Add the missing punctuation the message names; the column points at the token after the gap.",
    )


class UnterminatedString(Rule):
    code, name, severity, kinds = "S102", "unterminated-string", Severity.ERROR, ("unterminated-string",)
    __doc__ = rule_doc(
        "A string has no closing quote before the end of the line.",
        "A double-quoted string that runs to the end of its line.",
        '{"$episode": "Pong}',
        '{"$episode": "Pong"}',
        "Close the string.",
    )


class BadString(Rule):
    code, name, severity, kinds = "S103", "bad-string", Severity.ERROR, ("bad-string",)
    __doc__ = rule_doc(
        "A string holds an invalid escape or a raw control character.",
        "Backslash escapes other than those JSON defines, and control characters such as a raw tab.",
        '{"name": "pong\\q"}',
        '{"name": "pong\\\\q"}',
        "Escape the backslash or remove the control character.",
    )


class SingleQuotedString(Rule):
    code, name, severity, kinds = "S104", "single-quoted-string", Severity.ERROR, ("single-quoted-string",)
    __doc__ = rule_doc(
        "A string uses single quotes, which JSON does not allow.",
        "Strings or keys written with `'`, as Python prints dictionaries.",
        "{'$episode': 'Pong'}",
        '{"$episode": "Pong"}',
        "Use double quotes.",
    )


class UnterminatedComment(Rule):
    code, name, severity, kinds = "S105", "unterminated-comment", Severity.ERROR, ("unterminated-comment",)
    __doc__ = rule_doc(
        "A `/*` comment is never closed.",
        "A block comment that runs to the end of the file.",
        '/* notes\n{"instructions": []}',
        '/* notes */\n{"instructions": []}',
        "Close the comment with `*/`.",
    )


class BareWord(Rule):
    code, name, severity, kinds = "S106", "bare-word", Severity.ERROR, ("bare-word",)
    __doc__ = rule_doc(
        "An unquoted word stands where a value or key belongs (`True`, `Pong`).",
        "Words that are not `true`, `false` or `null`, including Python's `True`/`False`/`None`.",
        '{"$info": {"disable_updates": True}}',
        '{"$info": {"disable_updates": true}}',
        "Quote strings; write booleans in lower case.",
    )


class BadNumber(Rule):
    code, name, severity, kinds = "S107", "bad-number", Severity.ERROR, ("bad-number",)
    __doc__ = rule_doc(
        "A number is not written the way JSON allows (leading zeros, `.5`, hex, `NaN`), or no reader converts it.",
        "Number tokens JSON rejects, and numbers a JSON reader cannot make a value of: an integer of "
        "more than 4,300 digits (Python's limit, `sys.get_int_max_str_digits`: `json.loads` refuses it) "
        "and a decimal beyond a 64-bit float (`1e400`, which readers make infinity, a value JSON "
        "cannot write back).",
        '{"bot/paddle/width": .15}',
        '{"bot/paddle/width": 0.15}',
        "Write the number in JSON form.",
    )


class UnexpectedCharacter(Rule):
    code, name, severity, kinds = "S108", "unexpected-character", Severity.ERROR, ("unexpected-character",)
    __doc__ = rule_doc(
        "A character that cannot start any JSON token.",
        "Stray characters such as `;` or smart quotes.",
        '{"$phase": "1.train"};',
        '{"$phase": "1.train"}',
        "Remove or replace the character.",
    )


class TooManyErrors(Rule):
    code, name, severity, kinds = "S109", "too-many-errors", Severity.ERROR, ("too-many-errors",)
    __doc__ = rule_doc(
        "The parser stopped after too many syntax errors.",
        "Files with so many syntax errors that reporting more would not help (often not a syllabus at all).",
        "a CSV file saved as .json",
        '{"instructions": []}',
        "Fix the first errors and lint again.",
    )


class TooDeep(Rule):
    code, name, severity, kinds = "S110", "too-deep", Severity.ERROR, ("too-deep",)
    __doc__ = rule_doc(
        "Nesting is deeper than the parser follows.",
        "Arrays or objects nested more than 100 levels deep; no syllabus needs that.",
        "[[[[[[ ... ]]]]]]",
        '{"instructions": []}',
        "Flatten the structure.",
    )


class DuplicateKey(Rule):
    code, name, severity, kinds = "S111", "duplicate-key", Severity.WARNING, ("duplicate-key",)
    __doc__ = rule_doc(
        "An object has the same key twice; engines keep only the last value.",
        "Repeated keys in any object, with the first occurrence as related information.",
        '{"$repeat": {"$episode": "Pong"}, "count": 100, "count": 5000}',
        '{"$repeat": {"$episode": "Pong"}, "count": 5000}',
        "Remove the copy you did not mean.",
        why="**Why it matters.** JSON loaders silently keep the last value, so the block runs a count "
        "or parameter the author may not have meant, and the metrics describe a different syllabus.",
    )


class InvalidUtf8(Rule):
    code, name, severity, kinds = "S120", "invalid-utf8", Severity.ERROR, ("invalid-utf8",)
    __doc__ = rule_doc(
        "The file is not valid UTF-8.",
        "Byte sequences that do not decode as UTF-8.",
        "a file saved as Latin-1 with a non-ASCII author name",
        "the same file saved as UTF-8",
        "Re-save the file as UTF-8.",
    )


class Encoding(Rule):
    code, name, severity, kinds = "S121", "encoding", Severity.ERROR, ("encoding",)
    __doc__ = rule_doc(
        "The file uses an encoding other than UTF-8 (UTF-16, UTF-32).",
        "Byte-order marks or patterns of other Unicode encodings.",
        "a file saved as UTF-16",
        "the same file saved as UTF-8",
        "Re-save the file as UTF-8.",
    )


class Binary(Rule):
    code, name, severity, kinds = "S122", "binary", Severity.ERROR, ("binary",)
    __doc__ = rule_doc(
        "The file is binary, not text.",
        "A first 8 KB of which more than a fifth is NUL bytes, invalid UTF-8 or control "
        "characters (random or compressed data, a file of zeros). One finding for the file, not one "
        "per byte. A stray NUL byte in a text is reported where it is (S103 in a string, S108 "
        "elsewhere), as the editor reports it. A binary file that no language's detection claims is "
        "linted when its name ends in `.json` or `.jsonc` or it starts like JSON, so that it fails "
        "rather than being skipped.",
        "a compressed log named syllabus.json",
        '{"instructions": []}',
        "Point sylla at the syllabus, not at a log or archive.",
    )


class EmptyFile(Rule):
    code, name, severity, kinds = "S130", "empty-file", Severity.ERROR, ("empty",)
    __doc__ = rule_doc(
        "The file is empty.",
        "Files with no JSON value (only whitespace or comments).",
        "",
        '{"instructions": [{"$phase": "1.train"}, {"$repeat": {"$episode": "Pong"}, "count": 5000}]}',
        "Write the syllabus or delete the file.",
    )


class NotASyllabus(Rule):
    code, name, severity, kinds = "S131", "not-a-syllabus", Severity.ERROR, ("not-a-syllabus",)
    __doc__ = rule_doc(
        "The file holds a single value, not a syllabus object or instruction list.",
        "Documents whose top-level value is a string, number, boolean or null.",
        '"Pong"',
        '{"instructions": [{"$repeat": {"$episode": "Pong"}, "count": 5000}]}',
        'Wrap the instructions in an object with an "instructions" list.',
    )


class CoreProblem(Rule):
    code, name, severity, kinds = "S199", "core-problem", Severity.ERROR, ("*",)
    __doc__ = rule_doc(
        "Any other problem the language core reports.",
        "A fallback for diagnostic classes newer than this linter; the message says what is wrong.",
        "(depends on the problem)",
        "(depends on the problem)",
        "Follow the message.",
    )


RULES = (
    InvalidSyntax, UnterminatedString, BadString, SingleQuotedString, UnterminatedComment, BareWord,
    BadNumber, UnexpectedCharacter, TooManyErrors, TooDeep, DuplicateKey, InvalidUtf8, Encoding, Binary,
    EmptyFile, NotASyllabus, CoreProblem,
)
