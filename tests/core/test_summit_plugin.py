"""The teaching plugin with hidden information, `examples/pyramids-summit`: installed
the way pip installs it (an entry point found by `importlib.metadata`), it shows up
everywhere, passes `check_game`, keeps every hand hidden from the other seats, and
speaks Korean from its own catalogue (`catalogue="pyramids_summit:locale"`).
`.ci/run` (scripts/check-light-install.sh) also pip-installs it into a fresh venv.

The rules worked by hand below are those of its docstring and rules.md.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pyramids.cli.main import app
from pyramids.core import (
    IllegalActionError,
    RecordError,
    Rng,
    game_manifest,
    game_names,
    load,
    registry,
)
from pyramids.play.i18n import words_text
from pyramids.play.movelog import describer
from pyramids.play.render import render_view
from pyramids.testing import check_game
from tests.core.test_plugins import _install_metadata, registered_snapshot

SUMMIT = Path(__file__).resolve().parents[2] / "examples" / "pyramids-summit"


@pytest.fixture
def summit_site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    before = registered_snapshot()  # first: taken with the plugin on the path, it kept it
    site = tmp_path / "site"
    _install_metadata(site, "pyramids_summit",
                      "[pyramids.games]\nsummit = pyramids_summit:MANIFEST\n")
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.syspath_prepend(str(SUMMIT / "src"))
    registry.reload_plugins()
    yield site
    registry._REGISTRY.clear()
    registry._REGISTRY.update(before)


def position(hands: list[list[int]], deck: list[int], stone: int, steps: list[int],
             player: int = 0, **options: int):  # noqa: ANN201 - the plugin's state
    from pyramids_summit import SummitState

    game = load("summit", players=len(hands), **options)
    return SummitState(game, 0, hands, deck, stone, steps, player, [])


def test_summit_is_listed_and_passes_check_game(summit_site: Path) -> None:
    assert "summit" in game_names()
    assert game_manifest("summit").display_title == "Summit"
    report = check_game("summit", games=60, checked=20)
    assert [v.options for v in report.variants] == [
        {"players": 2, "height": 5}, {"players": 3, "height": 5},
        {"players": 4, "height": 3}, {"players": 2, "height": 1}]


def test_a_turn_climbs_leaps_or_stays_and_draws_worked_by_hand(summit_site: Path) -> None:
    state = position([[2, 5, 9], [1, 5, 7]], deck=[3, 4], stone=5, steps=[0, 0])
    state.apply_string("play 5")  # equal to the stone: two steps; draws the top card, 4
    assert (state.steps, state.stone, state.hands[0], state.deck) == ([2, 0], 5, [2, 4, 9], [3])
    assert state.current_player == 1
    state.apply_string("play 1")  # lower: no step; draws the last card, 3
    assert (state.steps, state.stone, state.hands[1], state.deck) == ([2, 0], 1, [3, 5, 7], [])
    state.apply_string("play 2")  # higher: one step; the deck is empty, so no draw
    assert (state.steps, state.stone, state.hands[0]) == ([3, 0], 2, [4, 9])
    assert state.legal_action_strings() == ["play 3", "play 5", "play 7"]
    assert not state.is_terminal()


def test_the_first_to_the_summit_wins_at_once(summit_site: Path) -> None:
    state = position([[6, 8, 9], [1, 2, 3]], deck=[4], stone=7, steps=[2, 2], height=3)
    state.apply_string("play 8")
    assert state.is_terminal() and state.current_player < 0
    assert state.returns() == [0.5, -0.5]
    assert state.view(None)["outcome"]["winners"] == [0]


def test_empty_hands_are_skipped_and_the_highest_share_the_win(summit_site: Path) -> None:
    state = position([[4], [], [6]], deck=[], stone=5, steps=[1, 2, 1])
    state.apply_string("play 4")  # seat 1 stays at 1; seat 2 holds nothing: seat 3 plays
    assert state.current_player == 2
    state.apply_string("play 6")  # seat 3 climbs to 2: every hand is empty, 2 and 3 tie
    assert state.is_terminal()
    assert state.returns() == pytest.approx([-1 / 3, 1 / 6, 1 / 6])
    assert state.view(None)["outcome"]["winners"] == [1, 2]


def test_a_seat_sees_its_own_hand_and_no_other(summit_site: Path) -> None:
    state = position([[2, 5, 9], [1, 5, 7]], deck=[3, 4], stone=6, steps=[0, 0])
    assert state.view(0)["hand"] == [2, 5, 9] and state.view(1)["hand"] == [1, 5, 7]
    assert "hand" not in state.view(None)
    assert state.view(0)["hand_sizes"] == [3, 3] and state.view(0)["deck_size"] == 2
    text = json.dumps(state.view(0))
    assert "[1, 5, 7]" not in text and "deck\": [" not in text
    # The resampled seat keeps what it sees; the rest is dealt again from the unseen cards.
    seen = set()
    for n in range(30):
        other = state.resample_hidden(0, Rng(n))
        assert other.view(0) == state.view(0)
        assert sorted(other.hands[1] + other.deck) == [1, 3, 4, 5, 7]
        seen.add(tuple(other.hands[1]))
    assert len(seen) > 3


def test_bad_moves_and_saves_are_refused_in_words_and_change_nothing(summit_site: Path) -> None:
    state = position([[2, 5, 9], [1, 5, 7]], deck=[3, 4], stone=6, steps=[0, 0])
    before = state.to_json()
    with pytest.raises(IllegalActionError) as refused:
        state.apply_string("play 3")
    assert str(refused.value) == "the move 'play 3' is illegal: you hold no such card"
    assert words_text(refused.value, "ko") == \
        "'play 3' 수는 둘 수 없습니다: 그런 카드가 손에 없습니다"
    with pytest.raises(IllegalActionError) as unknown:
        state.apply_string("play 42")
    assert words_text(unknown.value, "ko") == \
        "'play 42'(이)라는 수는 없습니다; 수는 'play N' (1..9)입니다"
    with pytest.raises(IllegalActionError, match="numbers 0 to 8"):
        state.apply_action(9)
    assert state.to_json() == before
    saved = json.loads(before)
    for field, bad, words in [("stone", 10, "a card is not 1..9"),
                              ("hands", [[5, 5, 5], [1]], "more than 2 times"),
                              ("steps", [0, -1], "steps: not 2 counts"),
                              ("player", 2, "player: 2 is not a seat")]:
        broken = json.loads(before)
        broken["state"][field] = bad
        with pytest.raises(RecordError, match=words):
            state.game.state_from_json(json.dumps(broken))
    assert state.game.state_from_json(json.dumps(saved)).to_json() == before


def test_its_drawing_and_move_log_speak_korean_from_its_own_catalogue(
        summit_site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pyramids.play import i18n

    state = position([[2, 5, 9], [1, 5, 7]], deck=[4], stone=5, steps=[1, 0])
    assert render_view("summit", state.view(0)) == (
        "Stone: 5; the deck holds 1 card\n"
        "Seat 1: step 1 of 5, 3 cards in hand\n"
        "Seat 2: step 0 of 5, 3 cards in hand\n"
        "Your hand: 2 5 9")
    monkeypatch.setattr(i18n, "_chosen", "ko")
    assert render_view("summit", state.view(0)) == (
        "디딤돌: 5; 더미에 카드 1장\n"
        "1번 자리: 5계단 중 1계단, 손패 3장\n"
        "2번 자리: 5계단 중 0계단, 손패 3장\n"
        "내 손패: 2 5 9")
    before = state.view(1)
    state.apply_string("play 9")
    lines = describer("summit")("play 9", 0, 1, before, state.view(1))
    assert [line.text("en") for line in lines] == ["Seat 1 played 9 on 5: one step up"]
    assert [line.text("ko") for line in lines] == \
        ["1번 자리가 디딤돌 5 위에 9를 냈습니다: 한 계단 오름"]


def test_play_plain_reaches_the_end_against_the_greedy_bot(summit_site: Path) -> None:
    moves = "\n".join(f"play {card}" for card in range(1, 10)) * 12
    result = CliRunner().invoke(app, ["play", "summit", "--plain", "--seats", "human,greedy",
                                      "--seed", "3"], input=moves + "\n")
    assert result.exit_code == 0, result.output
    assert "Game over." in result.output and "Your hand:" in result.output


def test_every_word_it_writes_has_korean_in_its_own_catalogue(summit_site: Path) -> None:
    """What `pybabel extract` finds in the package (errors, move log, drawing), the
    manifest's title and summary and the options' descriptions all have a Korean
    translation in locale/ko.po, with the same placeholders."""

    from babel.messages.extract import extract_from_dir
    from babel.messages.pofile import read_po
    from pyramids_summit import MANIFEST

    keywords = {"N_": None, "say": None, "_": None, "PluralWords": (1, 2),
                "ngettext": (1, 2), "say_n": (1, 2)}
    found = {message if isinstance(message, str) else message[0]
             for _file, _line, message, _comments, _context
             in extract_from_dir(str(SUMMIT / "src"), keywords=keywords)}
    found |= {MANIFEST.title, MANIFEST.summary}
    found |= {option.doc for option in MANIFEST.factory.option_specs}
    with (SUMMIT / "src" / "pyramids_summit" / "locale" / "ko.po").open("rb") as stream:
        catalogue = {(m.id if isinstance(m.id, str) else m.id[0]): m.string
                     for m in read_po(stream, locale="ko") if m.id}
    assert len(found) >= 10
    for message in sorted(found):
        korean = catalogue.get(message)
        assert korean, f"no Korean for {message!r}"
        for form in korean if isinstance(korean, tuple) else (korean,):
            assert set(re.findall(r"\{\w+\}", form)) == set(re.findall(r"\{\w+\}", message))



def test_every_option_title_and_description_it_shows_is_korean(summit_site: Path) -> None:
    """The options as the lobby and the terminal app show them: each title (written by
    pyramids from the option's name, "Height", or pyramids' own word, "Players") and
    each description reads in Korean, from Summit's catalogue or pyramids' own."""
    from pyramids_summit import MANIFEST

    from pyramids.play.i18n import gettext
    from pyramids.play.option_words import option_title

    hangul = re.compile("[\uac00-\ud7a3]")
    shown = {option_title(option.name) for option in MANIFEST.factory.option_specs}
    assert shown == {"Players", "Height"}
    shown |= {option.doc for option in MANIFEST.factory.option_specs}
    for words in sorted(shown):
        korean = gettext(words, "ko")
        assert hangul.search(korean), f"no Korean for {words!r}: {korean!r}"
    assert gettext("Height", "ko") == "높이"


def test_simulate_and_arena_play_it_with_its_greedy_policy(summit_site: Path) -> None:
    output = CliRunner().invoke(app, ["simulate", "summit", "--agents", "greedy,random",
                                      "--games", "20", "--seed", "1"]).output
    assert "mean actions per game" in output and "Greedy rule" in output
    result = CliRunner().invoke(app, ["arena", "summit", "--agents", "greedy,random",
                                      "--players", "3", "--games", "6", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "Elo" in result.output


def test_its_rules_page_is_korean_for_a_korean_reader(summit_site: Path) -> None:
    """Summit's rules page was English in every language; rules.ko.md beside rules.md
    is now what `pyramids --lang ko rules summit`, F1 and /learn/summit show, titled
    as the catalogue names the game, with the rules' numbers and the catalogue's
    words (디딤돌, 계단, 손패); the English page is rules.md, unchanged."""
    from pyramids.play.i18n import gettext, set_language
    from pyramids.play.learn import learn_text

    english = (SUMMIT / "src" / "pyramids_summit" / "rules.md").read_text(encoding="utf-8")
    try:
        result = CliRunner().invoke(app, ["--lang", "ko", "rules", "summit"])
    finally:
        set_language(None)
    assert result.exit_code == 0, result.output
    korean = result.output
    assert korean.splitlines()[0] == "# " + gettext("Summit", lang="ko") == "# 정상"
    for words in ("디딤돌", "계단", "손패", "등반자", "1번 자리", "18장", "카드 3장",
                  "공동 승리", "`height`"):
        assert words in korean, words
    assert "영어로" not in korean and not re.search(r"[A-Za-z]{4,}", korean.replace(
        "`height`", ""))
    assert learn_text("summit", "ko").strip() == korean.strip()
    assert learn_text("summit", "en") == english
    result = CliRunner().invoke(app, ["--lang", "en", "rules", "summit"])
    assert result.output.strip() == english.strip()
