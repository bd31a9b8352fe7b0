"""The extension's "is a syllabus open?" check (src/syllabusSniff.ts), which decides whether
it probes Python and starts the server, agrees with the server's own decision
(``sylla.grammar.syllabus.detect.is_syllabus``) on every JSON file of the repository's fixtures and
examples, and on the cases of issue 14. A disagreement either starts a server for nothing or,
worse, never starts it for a syllabus."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from vscode_support import EXTENSION, ROOT

from sylla.grammar.syllabus.detect import is_syllabus, sniff_text

pytestmark = pytest.mark.editor

CASES = [
    '{"instructions": [{"$phase": "1.train"}]}',
    '[{"$phase": "1.train"}]',
    '{"instrutions": [{"$phase": "1.train"}]}',
    '{"instructions": "You are a helpful assistant"}',
    '{"recipe": {"instructions": ["boil", "serve"]}}',
    '{"name": "app", "scripts": {"test": "jest"}}',
    '{\n  // comment\n  "instructions": [],\n}',
    '{"text": "\\"$phase\\": is quoted"}',
]

CHECK = """
const { looksLikeSyllabus } = require(process.argv[1]);
let input = "";
process.stdin.on("data", (d) => (input += d)).on("end", () => {
  process.stdout.write(JSON.stringify(JSON.parse(input).map((text) => looksLikeSyllabus(text))));
});
"""


def test_extension_and_server_agree_on_what_is_a_syllabus(node_modules: None, tmp_path: Path) -> None:
    module = tmp_path / "syllabusSniff.js"
    built = subprocess.run(
        [str(EXTENSION / "node_modules" / ".bin" / "esbuild"), str(EXTENSION / "src" / "syllabusSniff.ts"),
         "--format=cjs", "--platform=node", f"--outfile={module}", "--log-level=error"],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert built.returncode == 0, built.stderr
    files = sorted(p for folder in ("tests/fixtures", "examples") for p in (ROOT / folder).rglob("*.json*")
                   if not p.is_relative_to(ROOT / "tests" / "fixtures" / "rules"))  # RuleTester pairs
    texts = [t for t in (sniff_text(p.read_bytes()) for p in files) if t is not None] + CASES
    assert len(texts) > 30
    answer = subprocess.run(
        ["node", "-e", CHECK, str(module)], input=json.dumps(texts), capture_output=True, text=True, timeout=60, check=False
    )
    assert answer.returncode == 0, answer.stderr
    extension_says = json.loads(answer.stdout)
    server_says = [is_syllabus(text) for text in texts]
    disagreements = [text[:80] for text, a, b in zip(texts, extension_says, server_says) if a != b]
    assert disagreements == []
    assert True in server_says and False in server_says


LONG = "a generated comment line\n" * 3000  # past 64 KB
BIRDS_CASES = [
    '<?xml version="1.0" encoding="utf-16"?>\n<config_generation>\n</config_generation>',
    "<!-- generated -->\r\n<evaluation><trials/></evaluation>",
    '<?xml version="1.0"?>\n<!DOCTYPE evaluation [<!ELEMENT evaluation ANY>]>\n<evaluation/>',
    '<?xml version="1.0"?>\n<project><modelVersion>4.0.0</modelVersion></project>',
    "<configuration><config_generation/></configuration>",
    "   \n<config_generation",
    "",
    # issue 38: a root behind a long prolog, a NUL or other character XML cannot hold before the
    # root is read, a cut or garbled prolog, an editor's buffer being typed, names beyond ASCII
    f"<!--{LONG}-->\n<config_generation>\n</config_generation>",
    f"<?xml version=\"1.0\"?>\n<!DOCTYPE config_generation [\n<!--{LONG}-->]>\n<evaluation/>",
    "<config_gen\x00eration>\n</config_generation>",
    "<?xml version=\"1.0\"?>\n\x00<config_generation/>",
    "<\x00evaluation/>",
    "<config_generation\x07/>",
    "<evaluation\ufffd/>",
    '<?xml version="1.0"?>\n<project><!-- \x00 --></project>',
    '<?xml version="1.0">\n<config_generation/>',
    "<!-- never closed\n<config_generation>",
    "<!DOCTYPE config_generation [\n<config_gen\x00eration>",  # a doctype never closed, and a NUL
    "<!-- being typed",
    "<",
    "<proj",
    "<evaluationé/>",
    "<évaluation/>",
    "\x0c<config_generation/>",
    "garbage\n<config_generation/>",
    "garbage\r<config_generation/>",
    '{"instructions": [], "note": "<evaluation>"}',
    "\x89PNG\r\n\x1a\n\x00\x00",
    "plain words",
]

BIRDS_CHECK = """
const { looksLikeBirdsConfig } = require(process.argv[1]);
let input = "";
process.stdin.on("data", (d) => (input += d)).on("end", () => {
  process.stdout.write(JSON.stringify(JSON.parse(input).map(([text, path]) => looksLikeBirdsConfig(text, path))));
});
"""


def test_extension_and_server_agree_on_what_is_a_science_birds_config(node_modules: None, tmp_path: Path) -> None:
    """The extension's XML check (src/birdsSniff.ts) against ``claims``, the server's decision,
    on every XML fixture (configMeta.xml, config.xml, the hostile and broken ones) and the cases
    above, each as the document of a ``configMeta.xml`` and of an ``untitled`` buffer."""
    from sylla.grammar.birds.detect import claims

    module = tmp_path / "birdsSniff.js"
    built = subprocess.run(
        [str(EXTENSION / "node_modules" / ".bin" / "esbuild"), str(EXTENSION / "src" / "birdsSniff.ts"),
         "--format=cjs", "--platform=node", f"--outfile={module}", "--log-level=error"],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert built.returncode == 0, built.stderr
    files = sorted((ROOT / "tests" / "fixtures").rglob("*.xml"))
    texts = []
    for path in files:
        try:
            texts.append(path.read_bytes().decode("utf-8"))
        except UnicodeDecodeError:
            continue  # binary garbage and UTF-16 files: an editor decodes those itself
    texts += BIRDS_CASES
    assert len(texts) > 50
    cases = [(text, path) for text in texts for path in ("/work/StreamingAssets/configMeta.xml", "Untitled-1")]
    answer = subprocess.run(
        ["node", "-e", BIRDS_CHECK, str(module)], input=json.dumps(cases), capture_output=True, text=True, timeout=60, check=False
    )
    assert answer.returncode == 0, answer.stderr
    extension_says = json.loads(answer.stdout)
    server_says = [claims(text, path) for text, path in cases]
    disagreements = [(text[:80], path) for (text, path), a, b in zip(cases, extension_says, server_says) if a != b]
    assert disagreements == []
    assert True in server_says and False in server_says
