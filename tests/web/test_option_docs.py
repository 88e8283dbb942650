"""The lobby describes an option's choices by the words its list shows: Mahjongg's turn
order read "round (the next seat...) or behind (after a pair...)", the command line's
names, over a list offering "In seat order" and "Lowest score moves next" (in Korean
too), as the terminal's options screen did before it was mended."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the web extra (pip install '.[web]')")

from pyramids.web.app import game_catalogue  # noqa: E402


def option(lang: str, game: str, name: str) -> dict[str, object]:
    games = {entry["name"]: entry for entry in game_catalogue(lang)}
    found: dict[str, object] = next(o for o in games[game]["options"] if o["name"] == name)
    return found


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_turn_order_is_described_by_its_choices_titles(lang: str) -> None:
    turn_order = option(lang, "mahjongg", "turn_order")
    doc = str(turn_order["doc"])
    titles = turn_order["choice_titles"]
    assert isinstance(titles, list) and len(titles) == 2
    for title in titles:
        assert f"“{title}”" in doc, doc
    assert "round" not in doc and "behind" not in doc, doc


def test_a_description_in_plain_words_reads_as_written() -> None:
    # "solvable (...) or random": not every choice opens its own explanation.
    deal = option("en", "mahjongg", "deal")
    assert deal["doc"] == "solvable (at least one way to clear the board exists) or random"
