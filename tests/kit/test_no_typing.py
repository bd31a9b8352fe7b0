"""``kit/no_typing.py`` stands in for typing at run time on the lint path: generic classes
and protocols stay subscriptable and subclassable, and nothing imports typing to get there
(``tests/cli/test_imports.py`` pins that on a whole lint)."""

from __future__ import annotations

import subprocess
import sys

from sylla.kit import no_typing
from sylla.linter.engine import LintResult
from sylla.linter.language import CoreParse, LanguageSpec, Parsed


def test_the_stand_ins_behave_as_run_time_code_uses_them() -> None:
    assert no_typing.TYPE_CHECKING is False
    assert no_typing.TypeVar("P", bound=int) == "P"
    decorate = no_typing.dataclass_transform(field_specifiers=())
    assert decorate(len) is len
    assert LintResult[object] is LintResult and LanguageSpec[object, object] is LanguageSpec
    assert issubclass(CoreParse, Parsed)


def test_the_lint_engine_imports_without_typing() -> None:
    code = "import sys; import sylla.linter.languages; print('typing' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"
