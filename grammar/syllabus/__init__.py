"""The syllabus language: grammar, schema, model, schedule, explain and the printer (``fmt``).

``syllabus.lark`` is the grammar (LALR, tables built by Lark), ``syllabus.schema.json`` the
structure; ``parse`` turns text into the typed ``model`` and ``schedule`` flattens it.
"""
