"""Names that look alike: `name_look` is equal exactly for names a reader could take for
one another, and the log and the pages name such seats with their seat numbers."""

from __future__ import annotations

import pytest

from pyramids.play.i18n import words_text
from pyramids.play.movelog import distinct_names
from pyramids.web.names import name_look
from pyramids.web.rooms import PERSON, Seat

BEA_CYRILLIC = "\u0412\u0435\u0430"  # В е а


@pytest.mark.parametrize(("first", "second"), [
    ("Bea", BEA_CYRILLIC),  # one alphabet each, the same look
    ("Bill", "BiII"),  # small l and capital I
    ("Bea", "BEA"),  # case
    ("Bea Star", "Bea  Star"),  # spacing
    ("Bea", "\uff22\uff45\uff41"),  # full-width
    ("P\u0430ul", "Paul"),  # a Cyrillic а among Latin letters
])
def test_names_a_reader_takes_for_one_another_look_alike(first: str, second: str) -> None:
    assert name_look(first) == name_look(second)


@pytest.mark.parametrize(("first", "second"), [
    ("Bea", "Ben"), ("Anna", "\u0410\u043d\u043d\u0430"),  # Анна: н is not H
    ("민지", "민재"), ("Ann", "Anne"), ("Tom", "\u0422\u043e\u0442"),  # Тот
])
def test_names_that_read_differently_do_not(first: str, second: str) -> None:
    assert name_look(first) != name_look(second)


def test_seats_whose_names_look_alike_are_named_with_their_seats() -> None:
    names = distinct_names({0: "Bea", 1: BEA_CYRILLIC, 2: "Ann"}, name_look)
    assert names[2] == "Ann"
    assert words_text(names[0], "en") == "Bea (seat 1)"
    assert words_text(names[1], "en") == f"{BEA_CYRILLIC} (seat 2)"
    # Without looks (the terminal's own tables), only the same name in any case is.
    assert distinct_names({0: "Bea", 1: BEA_CYRILLIC}) == {0: "Bea", 1: BEA_CYRILLIC}


def test_a_persons_seat_tells_the_pages_its_look() -> None:
    assert Seat(1, PERSON, BEA_CYRILLIC).public()["look"] == name_look("Bea")
    assert "look" not in Seat(0).public()
