"""The readers sit below the pipeline that uses them (issue 39 item 3): no module of
``metrics/readers/`` imports alignment, the compute path, the plugins or the commands built on
them, at module level or inside a function. ``ste_store`` imported ``align.regime_blocks`` for
the block table, whose pandas-free builder (`sylla.metrics.data.regime_columns`) is below both."""

from __future__ import annotations

from test_import_graph import graph

#: what the readers may import from sylla: the shared data model and helpers below them
BELOW = ("sylla.metrics.readers", "sylla.metrics.data", "sylla.metrics.errors", "sylla.metrics.spill",
         "sylla.metrics.numbering",
         "sylla.metrics.memory", "sylla.metrics.progress", "sylla.metrics.cores", "sylla.metrics",
         "sylla.grammar", "sylla.kit", "sylla.version")


def upward(edges: dict[str, set[str]]) -> list[str]:
    return sorted(f"{source} -> {target}" for source, targets in edges.items()
                  if source.startswith("sylla.metrics.readers")
                  for target in targets
                  if not any(target == b or target.startswith(b + ".") and b != "sylla.metrics"
                             for b in BELOW))


def test_no_reader_imports_the_pipeline_above_it() -> None:
    assert not upward(graph())


def test_the_check_sees_an_upward_import() -> None:
    """The check above can fail: the arrow ste_store had."""
    assert upward({"sylla.metrics.readers.ste_store": {"sylla.metrics.align"}}) == [
        "sylla.metrics.readers.ste_store -> sylla.metrics.align"]
