"""B80x: what the core reports while reading a Science Birds config (XML, entities, encoding,
schema). The reader finds the problem; the engine reports it under the rule whose ``kinds``
name the diagnostic. The documentation lives here."""

from __future__ import annotations

from sylla.grammar.core import Severity

from ._birds import BirdsRule, birds_doc


class XmlUnreadable(BirdsRule):
    code, name, severity = "B801", "xml-unreadable", Severity.ERROR
    kinds = ("xml-syntax", "xml-binary", "xml-too-large", "xml-encoding", "xml-not-birds")
    __doc__ = birds_doc(
        "The file is not well-formed XML (truncated, binary, too large or not decodable).",
        "Well-formedness errors from the XML parser (with the line and column it stopped at), files "
        "with NUL bytes (at the first one), bytes that are not valid in the detected encoding, and files over 32 MB.",
        "The game reads configMeta.xml when it starts; a file it cannot parse stops the evaluation "
        "before the first trial, and no other rule can run on it.",
        '<config_generation>\n  <trials>\n    <trial notify_novelty="true">\n      <count>1</count>\n',
        '<config_generation>\n  <trials>\n    <trial notify_novelty="true">\n      <count>1</count>\n      ...\n    </trial>\n  </trials>\n</config_generation>',
        "Close the elements the message names, or restore the file from the generator.",
        "the file format of item 1-5",
    )


class XmlEntity(BirdsRule):
    code, name, severity, kinds = "B802", "xml-entity", Severity.ERROR, ("xml-entity",)
    __doc__ = birds_doc(
        "The file declares an XML entity (an entity bomb or an external entity).",
        "`<!ENTITY ...>` declarations in a DOCTYPE. sylla's reader is hardened (defusedxml): it never "
        "expands entities or fetches external ones, and reports the declaration instead.",
        "Entity expansion is how a few hundred bytes become gigabytes (billion laughs) and how an XML "
        "file reads local files (external entities); trial configs never need either.",
        '<!DOCTYPE config_generation [<!ENTITY lol "lol">]>\n<config_generation>&lol;</config_generation>',
        "<config_generation>\n  <trials/>\n</config_generation>",
        "Remove the DOCTYPE and write the values out.",
        "the file format",
    )


class EncodingMismatch(BirdsRule):
    code, name, severity, kinds = "B803", "encoding-declaration-mismatch", Severity.INFO, ("xml-encoding-mismatch",)
    __doc__ = birds_doc(
        "The XML declaration names an encoding the bytes are not in.",
        "A declaration such as `encoding=\"utf-16\"` on a file saved as ASCII or UTF-8, which is what "
        "the game itself writes: every configMeta.xml and config.xml it ships or generates declares "
        "utf-16 on ASCII bytes. sylla decodes by byte-order mark or by sniffing the bytes, whatever the "
        "declaration says.\n\n"
        "**Why info, not a warning.** The game reads the file into a string and never consults the "
        "declaration, so a pristine game file runs exactly as written: the default `sylla lint` "
        "(`--fail-on warning`) passes it, and the finding is shown so that you know before a strict "
        "tool refuses the file. Make it fail with `severity = { B803 = \"warning\" }` in `[tool.sylla]` "
        "when your configs also go through strict XML tools, or silence it with `ignore = [\"B803\"]`.",
        "Strict XML tools (and some editors) believe the declaration and refuse the file or show "
        "garbage; the game does not.",
        '<?xml version="1.0" encoding="utf-16"?>  <!-- saved as ASCII -->',
        '<?xml version="1.0" encoding="utf-8"?>',
        "Change the declaration to the encoding the file is saved in (utf-8 for ASCII files). Not "
        "automatic: regenerating the file from the game writes utf-16 again.",
        "the file format",
    )


class NumberOutOfRange(BirdsRule):
    code, name, severity, kinds = "B805", "number-out-of-range", Severity.ERROR, ("xml-number-range",)
    __doc__ = birds_doc(
        "A whole number the game cannot read: outside -2147483648 to 2147483647.",
        "Every value the game reads as a whole number (`count`, `repeats`, limits, `step`, the "
        "`game_level_set` numbers and both ends of `amount=\"lo-hi\"`, the config.xml trial and set "
        "numbers), however many digits it has. sylla counts the digits before converting, so a "
        "number of any length is a finding at its position, never a crash; `explain` shows what "
        "depends on it as unknown.",
        "The game parses these values with int.Parse into a 32-bit integer, and a number outside its "
        "range stops the generator with an overflow before the first trial.",
        '<limit type="interaction">60000000000</limit>',
        '<limit type="interaction">60000</limit>',
        "Write a number in range (a limit of 0 or less switches the limit off).",
        "items 1-5 (allowed value: Integer)",
    )


class SchemaViolation(BirdsRule):
    code, name, severity, kinds = "B804", "xml-schema-violation", Severity.ERROR, ("xml-schema",)
    __doc__ = birds_doc(
        "The file does not match the shipped XML Schema (XSD 1.0) of its kind.",
        "Elements out of order or missing, unknown attributes, values of the wrong type (a word where "
        "an integer belongs), checked with `xmlschema` against `config_generation.xsd` or "
        "`evaluation.xsd`, the same files editors use. The message names the node in plain words.",
        "The game reads configMeta.xml positionally (count, then repeats, then checkpoint...) and "
        "parses numbers with int.Parse: a misplaced element or a non-number stops the generator.",
        '<trial notify_novelty="true">\n  <repeats>1</repeats>\n  <count>two</count>',
        '<trial notify_novelty="true">\n  <count>2</count>\n  <repeats>1</repeats>',
        "Write the element or value the message asks for.",
        "items 1-5",
    )


RULES = (XmlUnreadable, XmlEntity, EncodingMismatch, SchemaViolation, NumberOutOfRange)
