"""``RequestsFirst``: a lint waits while a request is being answered, and never for ever."""

from __future__ import annotations

import threading

from sylla.lsp.priority import RequestsFirst


def test_a_lint_waits_until_the_last_request_is_answered() -> None:
    gate = RequestsFirst()
    assert gate.wait(timeout=0.0)  # nothing being answered: no wait
    done = threading.Event()
    outcome: list[bool] = []

    def lint() -> None:
        outcome.append(gate.wait(timeout=30))
        done.set()

    with gate.answering():
        with gate.answering():  # two requests at once
            worker = threading.Thread(target=lint)
            worker.start()
            assert not done.wait(0.05)
        assert not done.wait(0.05)  # one is still being answered
    assert done.wait(30) and outcome == [True]
    worker.join()


def test_a_lint_stops_waiting_after_its_timeout() -> None:
    gate = RequestsFirst()
    with gate.answering():
        assert gate.wait(timeout=0.01) is False


def test_a_failing_request_does_not_hold_lints_back() -> None:
    gate = RequestsFirst()
    try:
        with gate.answering():
            raise ValueError("the request failed")
    except ValueError:
        pass
    assert gate.wait(timeout=0.0)
