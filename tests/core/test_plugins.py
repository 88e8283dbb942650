"""Third-party games: a package that declares a `pyramids.games` entry point shows up
everywhere (games, simulate, arena, play --plain, the web lobby) with no edit to
pyramids.

The fixture installs the example plugin (`examples/pyramids-nim`) the way pip
does, as far as discovery goes: a `.dist-info` folder with `entry_points.txt`
on `sys.path`, so `importlib.metadata` finds it like any installed package.
`.ci/run` also pip-installs the same package into a fresh venv and plays it.
"""

from __future__ import annotations

import dataclasses
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pyramids.cli.main import app
from pyramids.core import game_manifest, game_names, load, registry
from pyramids.testing import check_game
from tests.toy_games import EXAMPLE_PLUGIN

ENTRY_POINTS = """[pyramids.games]
toy-nim = pyramids_nim:MANIFEST
"""


def _install_metadata(site: Path, name: str, entry_points: str) -> None:
    info = site / f"{name}-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text(entry_points)


def registered_snapshot() -> dict[str, Any]:
    """The registry to restore after a test reloads plugins. The built-ins are loaded
    first: a built-in registers once, on import, so a snapshot taken before they were
    loaded would drop them for the rest of the run (temple missing in later tests)."""
    registry.manifests()
    return dict(registry._REGISTRY)


@pytest.fixture
def plugin_site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    before = registered_snapshot()  # first: taken with the plugin on the path, it kept it
    site = tmp_path / "site"
    _install_metadata(site, "pyramids_nim", ENTRY_POINTS)
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.syspath_prepend(str(EXAMPLE_PLUGIN / "src"))
    registry.reload_plugins()
    yield site
    registry._REGISTRY.clear()
    registry._REGISTRY.update(before)


def invoke(*args: str, input: str | None = None) -> str:
    result = CliRunner().invoke(app, list(args), input=input)
    assert result.exit_code == 0, result.output
    return result.output


def test_the_plugin_is_listed_and_loads(plugin_site: Path) -> None:
    assert "toy-nim" in game_names()
    assert game_manifest("toy-nim").display_title == "Nim"
    assert load("toy-nim", stones=5).new_initial_state().legal_actions() == [0, 1, 2]
    assert "toy-nim" in invoke("games")


def test_the_plugin_passes_check_game(plugin_site: Path) -> None:
    report = check_game("toy-nim", games=40, checked=10)
    assert [v.options for v in report.variants] == [{"stones": 7}, {"stones": 1}, {"stones": 21}]


def test_simulate_uses_the_plugins_greedy_policy(plugin_site: Path) -> None:
    # Greedy Nim leaves a multiple of four: from 7 stones the first player always wins.
    output = invoke("simulate", "toy-nim", "--agents", "greedy,greedy", "--games", "20")
    assert "seat 1 (Greedy rule): 20 wins" in output


def test_arena_plays_the_plugin(plugin_site: Path) -> None:
    output = invoke("arena", "toy-nim", "--agents", "greedy,random", "--games", "40")
    assert "greedy" in output and "Elo" in output


def test_play_plain_draws_it_with_its_text_renderer(plugin_site: Path) -> None:
    # Taking 1 of 5 leaves greedy a multiple of four; then the largest legal take wins
    # (the larger ones are refused as illegal first, which changes nothing).
    output = invoke("play", "toy-nim", "--plain", "--seats", "human,greedy", "--seed", "1",
                    "--option", "stones=5", input="rules\ntake 1\ntake 3\ntake 2\ntake 1\n")
    assert "Pile: ooooo (5 stones)" in output
    assert "=== Nim, move 1: seat 1 to play ===" in output
    assert "Strategy: leave your opponent a multiple of four stones." in output
    assert "Winner: seat 1 (you)" in output


def test_its_drawing_speaks_korean_from_its_own_catalogue(
        plugin_site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nim's text drawing was English in every language ("Pile: ooooo (5 stones)" under
    `--lang ko`); like Summit it now reads its words from its own locale/ko.po."""
    from pyramids.play import i18n
    from pyramids.play.render import render_view

    five, empty = {"stones": 5}, {"stones": 0}
    assert render_view("toy-nim", five) == "Pile: ooooo (5 stones)"
    assert render_view("toy-nim", {"stones": 1}) == "Pile: o (1 stone)"
    assert render_view("toy-nim", empty) == "Pile: (empty) (0 stones)"
    assert render_view("toy-nim", five, "ko") == "더미: ooooo (돌 5개)"
    monkeypatch.setattr(i18n, "_chosen", "ko")
    assert render_view("toy-nim", five) == "더미: ooooo (돌 5개)"
    assert render_view("toy-nim", empty) == "더미: (비어 있음) (돌 0개)"
    assert render_view("toy-nim", five, "en") == "Pile: ooooo (5 stones)"  # a reader's own
    assert i18n.current_language() == "ko"  # and the run's language is as it was


def test_play_plain_in_korean_draws_and_refuses_in_korean(plugin_site: Path) -> None:
    output = invoke("--lang", "ko", "play", "toy-nim", "--plain", "--seats", "human,greedy",
                    "--seed", "1", "--option", "stones=5",
                    input="take 1\ntake 3\ntake 2\ntake 1\n")
    assert "더미: ooooo (돌 5개)" in output
    assert "Pile:" not in output
    assert "옵션: 돌 수: 5" in output
    assert "돌을 2개까지만" in output  # take 3 of the 2 stones greedy left


def test_every_word_it_writes_has_korean_in_its_own_catalogue(plugin_site: Path) -> None:
    """What `pybabel extract` finds in the package (errors, the drawing), the words of
    its browser drawing, the manifest's title and summary and the option's description
    all have Korean in locale/ko.po, with the same placeholders."""
    import re

    from babel.messages.extract import extract_from_dir
    from babel.messages.pofile import read_po
    from pyramids_nim import MANIFEST

    from pyramids.play.option_words import option_title

    keywords = {"N_": None, "_": None, "PluralWords": (1, 2), "ngettext": (1, 2)}
    found = {message if isinstance(message, str) else message[0]
             for _file, _line, message, _comments, _context
             in extract_from_dir(str(EXAMPLE_PLUGIN / "src"), keywords=keywords)}
    script = (EXAMPLE_PLUGIN / "src" / "pyramids_nim" / "nim.js").read_text()
    found |= set(re.findall(r"\bt[n]?\(\"([^\"]+)\"", script))
    found |= {MANIFEST.title, MANIFEST.summary}
    found |= {option.doc for option in MANIFEST.factory.option_specs}
    found |= {option_title(option.name) for option in MANIFEST.factory.option_specs}
    with (EXAMPLE_PLUGIN / "src" / "pyramids_nim" / "locale" / "ko.po").open("rb") as stream:
        catalogue = {(m.id if isinstance(m.id, str) else m.id[0]): m.string
                     for m in read_po(stream, locale="ko") if m.id}
    assert len(found) >= 8
    for message in sorted(found):
        korean = catalogue.get(message)
        assert korean, f"no Korean for {message!r}"
        for form in korean if isinstance(korean, tuple) else (korean,):
            assert set(re.findall(r"\{\w+\}", form)) == set(re.findall(r"\{\w+\}", message))


def test_play_plain_without_a_text_renderer_says_so_not_its_keys(plugin_site: Path) -> None:
    """Without a text_renderer the plain player printed the view's internal keys ("to
    move: 0", a seat counted from 0, "outcome: -"); it now says the game has no drawing,
    and the legal moves below it are words."""
    registry._REGISTRY["toy-nim"] = dataclasses.replace(game_manifest("toy-nim"),
                                                        text_renderer=None)
    output = invoke("play", "toy-nim", "--plain", "--seats", "human,greedy", "--seed", "1",
                    "--option", "stones=5", input="take 1\ntake 3\ntake 2\ntake 1\n")
    assert "Nim has no drawing of its board here; follow the game by its moves." in output
    assert "take 1" in output.split("Legal moves:")[1]
    for internal in ("to move", "stones:", "outcome"):
        assert internal not in output, output
    assert "Winner: seat 1 (you)" in output


def test_the_web_lobby_lists_it_and_serves_its_renderer(plugin_site: Path, tmp_path: Path) -> None:
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    from fastapi.testclient import TestClient

    from pyramids.web.app import create_app
    from pyramids.web.pages import mount_pages

    with TestClient(mount_pages(create_app(f"sqlite:///{tmp_path / 'rooms.db'}"))) as client:
        games = {game["name"]: game for game in client.get("/api/games").json()["games"]}
        assert games["toy-nim"]["title"] == "Nim"
        assert games["toy-nim"]["renderer"] == "/games/toy-nim/renderer.js"
        script = client.get("/games/toy-nim/renderer.js")
        assert script.status_code == 200 and "export function render" in script.text
        assert client.get("/games/no-such-game/renderer.js").status_code == 404
        created = client.post("/api/rooms", json={"game": "toy-nim"})
        assert created.status_code == 201, created.text
        assert created.json()["room"]["game"] == "toy-nim"


def test_a_broken_plugin_is_skipped_with_a_warning(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    site = tmp_path / "site"
    _install_metadata(site, "broken_plugin",
                      "[pyramids.games]\nbroken = no_such_module_here:MANIFEST\n"
                      "clash = pyramids_nim:CLASH\n")
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.syspath_prepend(str(EXAMPLE_PLUGIN / "src"))
    import pyramids_nim

    monkeypatch.setattr(pyramids_nim, "CLASH", game_manifest("pacal").__class__(
        name="pacal", factory=pyramids_nim.NimGame, summary="an impostor"), raising=False)
    before = registered_snapshot()
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            registry.reload_plugins()
        messages = [str(w.message) for w in caught]
        assert any("'broken'" in m and "could not be loaded" in m for m in messages)
        assert any("'pacal' is taken" in m for m in messages)
        assert game_manifest("pacal").summary != "an impostor"
    finally:
        registry._REGISTRY.clear()
        registry._REGISTRY.update(before)
        sys.modules.pop("no_such_module_here", None)


def test_the_example_plugin_words_its_errors_for_the_catalogue() -> None:
    """The worked example follows the engines' pattern (docs/adding-a-game.md): an error
    a player reads carries a message id with placeholders and its values (`N_`,
    `PluralWords`), which the catalogue extracts and the interfaces translate; an
    f-string baked the numbers into English text no catalogue could hold."""
    from pyramids.core.errors import IllegalActionError, PluralWords, Words
    from tests.toy_games import NimGame

    state = NimGame(stones=2).new_initial_state(0)
    state.apply_action(0)  # one stone left
    with pytest.raises(IllegalActionError) as refused:
        state.apply_action(2)
    why = refused.value.words.values["why"]
    assert isinstance(why, PluralWords) and why.values == {"count": 1}
    assert why.msgid == "you may take only {count} stone"
    assert why.plural == "you may take 1 to {count} stones"
    assert str(refused.value) == "the move 'take 3' is illegal: you may take only 1 stone"
    with pytest.raises(IllegalActionError) as unknown:
        state.string_to_action("grab 9")
    assert isinstance(unknown.value.words, Words)
    assert unknown.value.words.msgid == "unknown move '{text}'; the moves are 'take N' (1..3)"
    assert unknown.value.words.values == {"text": "grab 9"}


def _rules(capfd: pytest.CaptureFixture[str], *args: str) -> tuple[str, str]:
    """`pyramids ARGS` as a person runs it: the page on stdout, notes on stderr."""
    from pyramids.cli.usage import run
    from pyramids.play.i18n import set_language

    capfd.readouterr()
    try:
        assert run(app, list(args)) == 0
    finally:
        set_language(None)
    shown = capfd.readouterr()
    return shown.out, shown.err


def test_rules_shows_nims_korean_page_to_a_korean_reader(
        plugin_site: Path, capfd: pytest.CaptureFixture[str]) -> None:
    """`pyramids --lang ko rules toy-nim` printed Nim's English rules.md: a plugin had
    no Korean page to give. Its rules.ko.md (beside rules.md, in the package data) is
    now the page a Korean reader gets, and the English page is unchanged."""
    out, err = _rules(capfd, "--lang", "ko", "rules", "toy-nim")
    assert out.startswith("# 님\n")
    assert "상대에게 4의 배수만큼 돌을 남기세요." in out
    assert "Strategy" not in out and err == ""
    english = (EXAMPLE_PLUGIN / "src" / "pyramids_nim" / "rules.md").read_text(encoding="utf-8")
    out, err = _rules(capfd, "--lang", "en", "rules", "toy-nim")
    assert out.strip() == english.strip() and err == ""
    # The reference stays the English rules.md, said to be English as for the built-ins.
    out, err = _rules(capfd, "--lang", "ko", "rules", "toy-nim", "--reference")
    assert out.strip() == english.strip() and "참조 규칙은 영어로만 있습니다" in err


def test_a_plugin_without_a_korean_page_shows_english_and_says_so(
        plugin_site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capfd: pytest.CaptureFixture[str]) -> None:
    """A plugin with rules.md alone (or only a `rules_page`) shows its English page to a
    Korean reader with one line in Korean saying why: under the page's title where the
    page is shown (F1, the browser, `rules` at the prompt), on stderr from `pyramids
    rules`, so that a page piped to a file stays the page as written."""
    from pyramids.core import packaged_rules_pages
    from pyramids.play.learn import learn_text

    package = tmp_path / "lib" / "english_only_nim"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "rules.md").write_text("# Nim\n\nTake 1 to 3 stones.\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path / "lib"))
    pages = packaged_rules_pages("english_only_nim")
    assert pages("en") == "# Nim\n\nTake 1 to 3 stones.\n"
    assert pages("ko") is None
    assert pages("../english_only_nim/rules") is None  # a language code, never a path
    note = "*이 페이지는 아직 한국어로 옮겨지지 않아 영어로 보여 드립니다.*"
    for learn_page in (pages, None):  # rules.md alone; a plugin with no learn_page at all
        registry._REGISTRY["toy-nim"] = dataclasses.replace(game_manifest("toy-nim"),
                                                            learn_page=learn_page)
        english = "# Nim\n\nTake 1 to 3 stones.\n" if learn_page else (
            EXAMPLE_PLUGIN / "src" / "pyramids_nim" / "rules.md").read_text(encoding="utf-8")
        shown = learn_text("toy-nim", "ko")
        assert shown == "# Nim\n\n" + note + "\n\n" + english.partition("\n\n")[2]
        assert learn_text("toy-nim", "en") == english
        out, err = _rules(capfd, "--lang", "ko", "rules", "toy-nim")
        assert out.strip() == english.strip()
        assert err.strip() == note.strip("*")
        out, err = _rules(capfd, "--lang", "en", "rules", "toy-nim")
        assert out.strip() == english.strip() and err == ""
