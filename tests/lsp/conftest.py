"""Fixtures for the language-server tests (the helpers live in ``lsp_support``)."""

from lsp_support import bare, client, fresh, gate, held, own_uri, shared  # noqa: F401 - pytest finds fixtures by name
