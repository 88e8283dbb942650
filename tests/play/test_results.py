"""Seats as players read them: labels, and runs of one bot taken together."""

from __future__ import annotations

from pyramids.play.i18n import current_language, set_language
from pyramids.play.results import seats_label


def test_runs_of_one_bot_are_taken_together() -> None:
    assert seats_label(["human", "expert", "expert", "expert"]) == (
        "seat 1 (you), seats 2–4 (Expert)")
    assert seats_label(["hard", "human", "hard"]) == "seat 1 (Hard), seat 2 (you), seat 3 (Hard)"
    assert seats_label(["human", "human", "easy"]) == (
        "seat 1 (human), seat 2 (human), seat 3 (Easy)")  # people are not taken together
    assert seats_label(["human"]) == "seat 1 (you)"
    before = current_language()
    set_language("ko")
    try:
        assert seats_label(["human", "medium", "medium"]) == "1번 자리 (나), 2–3번 자리 (보통)"
    finally:
        set_language(before)
