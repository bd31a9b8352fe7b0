"""`entry_points_of` reads entry points without building every distribution's metadata; it must
list what importlib.metadata lists."""

from __future__ import annotations

from importlib.metadata import entry_points

import pytest

from sylla.metrics.registry import entry_points_of


@pytest.mark.parametrize("group", ["sylla.metrics", "console_scripts", "pytest11", "no.such"])
def test_same_entry_points_as_importlib_metadata(group):
    expected = sorted((e.name, e.value) for e in entry_points(group=group))
    assert sorted((e.name, e.value) for e in entry_points_of(group)) == expected


def test_a_distribution_earlier_on_the_path_shadows_a_later_one(tmp_path, monkeypatch):
    for folder, target in (("a", "first:P"), ("b", "second:P")):
        dist = tmp_path / folder / "shadowed_plugin-1.0.dist-info"
        dist.mkdir(parents=True)
        (dist / "entry_points.txt").write_text(f"[sylla.test]\np = {target}\n")
    monkeypatch.syspath_prepend(str(tmp_path / "b"))
    monkeypatch.syspath_prepend(str(tmp_path / "a"))
    assert [(e.name, e.value) for e in entry_points_of("sylla.test")] == [("p", "first:P")]
    assert [(e.name, e.value) for e in entry_points(group="sylla.test")] == [("p", "first:P")]


def test_comments_other_sections_and_case_are_read_as_importlib_metadata_reads_them(
        tmp_path, monkeypatch):
    """The section is read by hand (configparser costs more to import than the scan)."""
    dist = tmp_path / "commented_plugin-1.0.dist-info"
    dist.mkdir()
    (dist / "entry_points.txt").write_text(
        "[console_scripts]\nnot_me = other:main\n\n"
        "[sylla.test]\n# a comment\nMixed_Case = pkg.mod:Obj.attr [extra]\n"
        "spaced=pkg:spaced\n\n[later]\nlate = pkg:late\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    ours = [(e.name, e.value) for e in entry_points_of("sylla.test")]
    assert ours == [("Mixed_Case", "pkg.mod:Obj.attr [extra]"), ("spaced", "pkg:spaced")]
    assert ours == [(e.name, e.value) for e in entry_points(group="sylla.test")]
