"""Completion reads task and parameter names from the task registry in the settings."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_support import RecordingClient, start
from lsprotocol import types

pytestmark = [pytest.mark.editor, pytest.mark.asyncio]

REGISTRY = """
[tasks.Pong]
params."bot/paddle/width" = { type = "number", min = 0.05, max = 0.5 }
params.difficulty = { type = "string", choices = ["easy", "hard"] }
[tasks.Breakout]
"""


async def test_registry_tasks_and_params_are_offered(bare: RecordingClient, tmp_path: Path) -> None:
    registry = tmp_path / "tasks.toml"
    registry.write_text(REGISTRY, encoding="utf-8")
    bare.set_configuration({"registry": str(registry)}, section="sylla")
    await start(bare)
    # the server waits only briefly for its settings before it completes: let them be on their
    # way first, so the answer does not depend on how fast the machine carries them
    await bare.settings_sent()
    text = '{\n  "instructions": [\n    {"$episode": "", }\n  ]\n}\n'
    uri = (tmp_path / "s.json").as_uri()
    bare.open(uri, text)
    doc = types.TextDocumentIdentifier(uri=uri)
    tasks = await bare.text_document_completion_async(
        types.CompletionParams(text_document=doc, position=types.Position(line=2, character=18))
    )
    assert {i.label: i.detail for i in tasks.items} == {
        "Pong": "from the task registry",
        "Breakout": "from the task registry",
    }
    bare.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(start=types.Position(2, 18), end=types.Position(2, 20)), text='Pong", "'
                )
            ],
        )
    )
    line = '    {"$episode": "Pong", " }'
    params = await bare.text_document_completion_async(
        types.CompletionParams(text_document=doc, position=types.Position(line=2, character=line.index('" }') + 1))
    )
    assert [i.label for i in params.items] == ["bot/paddle/width", "difficulty"]
