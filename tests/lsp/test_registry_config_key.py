"""The editor gets the gymnasium registry from the config key alone: with
``registry = "gymnasium"`` in the project's sylla.toml, an unknown task and an unknown parameter
are published at their range with a "did you mean"; the same syllabus in a project without the
key gets none."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lsp_support import RecordingClient
from lsprotocol import types

pytestmark = [pytest.mark.editor, pytest.mark.asyncio]

SYLLABUS = json.dumps({"instructions": [
    {"$phase": "1.train"},
    {"$repeat": {"$episode": "$minigridkit:Minigrid5x6", "agent_pos": [1, 1]}, "count": 3},
    {"$repeat": {"$episode": "MiniGrid-Empty-5x5-v0", "agent_start_poss": [1, 1]}, "count": 3},
]}, indent=2) + "\n"


def position(text: str, needle: str) -> types.Position:
    before = text[: text.index(needle)]
    return types.Position(line=before.count("\n"), character=len(before) - before.rfind("\n") - 1)


def registry_findings(diagnostics: list[types.Diagnostic]) -> dict[tuple[object, int, int], str]:
    return {(d.code, d.range.start.line, d.range.start.character): d.message
            for d in diagnostics if str(d.code).startswith("R7")}


async def test_the_config_key_reaches_the_editor(client: RecordingClient, tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "sylla.toml").write_text('registry = "gymnasium"\n', encoding="utf-8")
    uri = (project / "s.json").as_uri()
    client.open(uri, SYLLABUS)
    found = registry_findings(await client.diagnostics_for(uri, 1))
    task, param = position(SYLLABUS, '"$minigridkit:Minigrid5x6"'), position(SYLLABUS, '"agent_start_poss"')
    assert found == {
        ("R701", task.line, task.character): 'unknown task "$minigridkit:Minigrid5x6" (did you mean "$minigridkit:Minigrid6x6"?)',
        ("R702", param.line, param.character):
            '"MiniGrid-Empty-5x5-v0" has no parameter "agent_start_poss" (did you mean "agent_start_pos"?)',
    }

    other = tmp_path / "other"
    other.mkdir()
    (other / "sylla.toml").write_text('profile = "l2m"\n', encoding="utf-8")
    plain = (other / "s.json").as_uri()
    client.open(plain, SYLLABUS)
    assert registry_findings(await client.diagnostics_for(plain, 1)) == {}
