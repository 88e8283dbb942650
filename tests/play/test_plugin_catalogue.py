"""A plugin game translates its own messages: its manifest names a catalogue
("package:folder" with `ko.po`), and every interface shows its words in the reader's
language (docs/adding-a-game.md, "Errors players read"). Before, a plugin's words
were English in every language, since only pyramids' own catalogue was read."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pyramids.core import GameManifest, IllegalActionError, registry
from pyramids.core.errors import N_, Words
from pyramids.play.i18n import catalogue_json, gettext, words_text
from tests.core.test_plugins import registered_snapshot
from tests.toy_games import NimGame

PO = '''msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Language: ko\\n"

msgid "you hold no such card"
msgstr "그런 카드가 손에 없습니다"

msgid "unknown move '{text}'"
msgstr "'{text}'(이)라는 수는 없습니다"

msgid "Quit"
msgstr "플러그인이 바꾼 말"
'''


@pytest.fixture
def plugin_with_catalogue(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    package = tmp_path / "summit_words"
    (package / "locale").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "locale" / "ko.po").write_text(PO, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "no_such_package_here", raising=False)
    before = registered_snapshot()
    registry._REGISTRY["toy-words"] = GameManifest(
        name="toy-words", factory=NimGame, summary="Nim with its own words",
        catalogue="summit_words:locale")
    yield "toy-words"
    registry._REGISTRY.clear()
    registry._REGISTRY.update(before)


def test_a_plugins_error_is_shown_in_the_readers_language(plugin_with_catalogue: str) -> None:
    why = Words(N_("you hold no such card"))
    assert words_text(why, "ko") == "그런 카드가 손에 없습니다"
    assert words_text(why, "en") == "you hold no such card"
    error = IllegalActionError(N_("unknown move '{text}'"), text="fly")
    assert words_text(error, "ko") == "'fly'(이)라는 수는 없습니다"


def test_the_browser_gets_the_plugins_words_too(plugin_with_catalogue: str) -> None:
    assert catalogue_json("ko")["messages"]["you hold no such card"] == "그런 카드가 손에 없습니다"


def test_a_plugin_cannot_change_pyramids_own_words(plugin_with_catalogue: str) -> None:
    assert gettext("Quit", "ko") != "플러그인이 바꾼 말"


def test_a_language_the_plugin_does_not_ship_stays_english(plugin_with_catalogue: str) -> None:
    assert gettext("you hold no such card", "en") == "you hold no such card"


def test_a_catalogue_that_cannot_be_read_warns_and_leaves_the_words_english(
        plugin_with_catalogue: str) -> None:
    registry._REGISTRY["toy-words"] = GameManifest(
        name="toy-words", factory=NimGame, summary="Nim",
        catalogue="no_such_package_here:locale")
    with pytest.warns(UserWarning, match="no_such_package_here:locale"):
        assert gettext("you hold no such card", "ko") == "you hold no such card"
