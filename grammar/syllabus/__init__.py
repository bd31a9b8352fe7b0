"""The syllabus language: grammar, schema, model, schedule, explain and the printer (``fmt``).

``syllabus.lark`` is the grammar (LALR, tables built by Lark), ``syllabus.schema.json`` the
structure; ``parse`` turns text into the typed ``model`` and ``schedule`` flattens it.
"""

#: the suffixes a syllabus file has (`detect.is_syllabus_file`; the language server and the
#: hook look at the same ones); here, in the package's first module, so that a command given
#: a log file tells it from a syllabus by its name without loading the detector
SUFFIXES = (".json", ".jsonc")
