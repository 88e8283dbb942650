"""Seats as players read them: labels, and runs of one bot taken together."""

from __future__ import annotations

from pyramids.play.i18n import current_language, set_language
from pyramids.play.results import seat_name, seats_label
from pyramids.play.session import seat_log_names


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


def test_an_agent_setting_reads_as_its_agents_words() -> None:
    # `mcts:iterations=5` is an internal: the seat reads as the agent, in words.
    assert seats_label(["human", "mcts:iterations=5"]) == "seat 1 (you), seat 2 (MCTS tree search)"
    assert seats_label(["human", "mcts:iterations=5", "mcts"]) == (
        "seat 1 (you), seats 2–3 (MCTS tree search)")
    before = current_language()
    set_language("ko")
    try:
        assert seats_label(["human", "greedy:mistakes=0.3"]) == (
            f"1번 자리 (나), 2번 자리 ({seat_name('greedy')})")
        assert "mistakes" not in seats_label(["human", "greedy:mistakes=0.3"])
    finally:
        set_language(before)
    # A name with a colon that is no setting stays whole.
    assert seats_label(["Re: Bea", "mcts"]) == "seat 1 (Re: Bea), seat 2 (MCTS tree search)"


def test_with_the_logs_names_bots_read_as_the_log_names_them() -> None:
    """The title bar said "seat 2 (Greedy rule)" where the log and the board said
    "Greedy rule (bot)"; a run of one bot keeps together, with its seats."""
    def label(seats: list[str]) -> str:
        return seats_label(seats, {seat: str(name)
                                   for seat, name in seat_log_names(seats).items()})

    assert label(["human", "greedy"]) == "seat 1 (you), Greedy rule (bot)"
    assert label(["human", "expert", "expert", "expert"]) == (
        "seat 1 (you), Expert (bot, seats 2–4)")
    assert label(["hard", "human", "hard"]) == (
        "Hard (bot, seat 1), seat 2 (you), Hard (bot, seat 3)")
    assert label(["human", "human", "easy"]) == "seat 1 (human), seat 2 (human), Easy (bot)"
    before = current_language()
    set_language("ko")
    try:
        assert label(["human", "medium", "medium"]) == "1번 자리 (나), 보통 (봇, 2–3번 자리)"
        assert label(["human", "medium"]) == "1번 자리 (나), 보통 (봇)"
    finally:
        set_language(before)
