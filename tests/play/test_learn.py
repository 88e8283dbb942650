"""The learn pages: every game explained for players, in English and Korean.

Each page has the same six sections in its language, and its "Our decisions"
section names every option of the game. The same text is what `pyramids rules`
prints and what `/learn/<game>` shows in the browser.
"""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

import pyramids.core as core
from pyramids.cli.main import app as cli_app
from pyramids.play.i18n import set_language

HEADINGS = {
    "en": ["About", "Components", "Rules", "Strategy", "FAQ", "Our decisions"],
    "ko": ["소개", "구성물", "규칙", "전략", "자주 묻는 질문", "우리의 결정"],
}
TITLES = {
    "pacal": {"en": "Pacal", "ko": "파칼"},
    "pacal-solo": {"en": "Pacal solo", "ko": "파칼 솔로"},
    "temple": {"en": "Temple of Inscriptions", "ko": "비문의 신전"},
    "mahjongg": {"en": "Mahjongg Pyramids", "ko": "마작 피라미드"},
}
LANGS = tuple(HEADINGS)


def _with_pages() -> list[core.GameManifest]:
    """pyramids' own games with learn pages: a plugin installed beside pyramids (the
    examples' Nim and Summit give theirs from rules.md and rules.ko.md) keeps a short
    page, without the six sections asked of the built-in games."""
    return [m for m in core.manifests()
            if m.learn_page is not None and m.factory.__module__.startswith("pyramids.")]


GAMES = [m.name for m in _with_pages()]


def _page(game: str, lang: str) -> str:
    manifest = core.game_manifest(game)
    page = manifest.learn_page(lang)
    assert page, f"{game} has no learn page in {lang!r}"
    return page


def _outside_code(page: str) -> list[str]:
    """The page's lines, without those inside fenced code blocks."""
    lines, fenced = [], False
    for line in page.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(line)
    return lines


def _section(page: str, heading: str) -> str:
    lines = _outside_code(page)
    start = lines.index("## " + heading)
    rest = lines[start + 1:]
    end = next((i for i, line in enumerate(rest) if line.startswith("## ")), len(rest))
    return "\n".join(rest[:end])


@pytest.fixture(autouse=True)
def _language_restored():
    yield
    set_language(None)


def test_the_built_in_games_have_pages():
    assert {"pacal", "pacal-solo", "temple", "mahjongg"} <= set(GAMES)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_page_has_the_six_sections(game, lang):
    page = _page(game, lang)
    first = page.splitlines()[0]
    assert first.startswith("# ")
    if game in TITLES:
        assert first == "# " + TITLES[game][lang]
    headings = [line[3:].strip() for line in _outside_code(page) if line.startswith("## ")]
    assert headings == HEADINGS[lang]
    assert "TODO" not in page
    assert 120 <= len(page.splitlines()) <= 300


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_our_decisions_names_every_option(game, lang):
    decisions = _section(_page(game, lang), HEADINGS[lang][-1])
    names = [spec.name for spec in core.game_manifest(game).factory().option_specs]
    missing = [name for name in names if f"`{name}`" not in decisions]
    assert not missing, f"{game} ({lang}): options not named in backticks: {missing}"


@pytest.mark.parametrize("game", GAMES)
def test_korean_page_is_korean(game):
    page = _page(game, "ko")
    hangul = len(re.findall(r"[\uac00-\ud7a3]", page))
    assert hangul > 1000
    assert page != _page(game, "en")
    # Buttons are named as the Korean screen labels them: "Keep my hand" and "Decline"
    # were quoted in English, beside buttons that read 내 손패 유지 and 거절.
    quoted = re.findall(r'"([^"]+)"', page)
    english = [text for text in quoted if re.fullmatch(r"[A-Za-z][A-Za-z ]+", text)]
    assert not english, english
    # Nor in a list of buttons: "버튼(Hint, Undo, Ra Sight, ...)".
    assert not re.search(r"\((?:[A-Z][A-Za-z ]+, ){2,}", page), game


def test_rules_command_prints_the_korean_page():
    result = CliRunner().invoke(cli_app, ["rules", "pacal", "--lang", "ko"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("# 파칼")
    assert "## 우리의 결정" in result.output
    assert "`rounds_to_win`" in result.output


def test_the_reference_rules_say_they_are_english_only_to_a_korean_reader(capfd):
    """`--lang ko rules --reference` printed English with no word of why."""
    from pyramids.cli.usage import run

    assert run(cli_app, ["rules", "pacal", "--lang", "ko", "--reference"]) == 0
    shown = capfd.readouterr()
    assert "참조 규칙은 영어로만 있습니다" in shown.err
    assert "참조 규칙" not in shown.out  # the page itself stays as written
    set_language(None)
    assert run(cli_app, ["rules", "pacal", "--reference"]) == 0
    assert "English only" not in capfd.readouterr().err


def test_rules_command_prints_the_english_page():
    result = CliRunner().invoke(cli_app, ["rules", "mahjongg", "--lang", "en"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("# Mahjongg Pyramids")
    assert "## Our decisions" in result.output


@pytest.fixture()
def client(tmp_path):
    pytest.importorskip("fastapi")
    pytest.importorskip("markdown_it")
    from fastapi.testclient import TestClient

    from pyramids.web.app import create_app
    from pyramids.web.pages import mount_pages

    with TestClient(mount_pages(create_app(f"sqlite:///{tmp_path}/db"))) as test_client:
        yield test_client


def test_browser_page_in_korean_sets_the_cookie(client):
    response = client.get("/learn/pacal?lang=ko")
    assert response.status_code == 200
    assert '<html lang="ko">' in response.text
    # The header's h1 is the site's; the page's title is an h2, its sections h3.
    assert "<h2>파칼</h2>" in response.text
    assert "<h3>우리의 결정</h3>" in response.text
    assert response.cookies.get("pyramids_lang") == "ko"


def test_browser_page_follows_accept_language(client):
    response = client.get(
        "/learn/temple", headers={"Accept-Language": "ko-KR,ko;q=0.9,en;q=0.5"}
    )
    assert response.status_code == 200
    assert '<html lang="ko">' in response.text
    assert "<h2>비문의 신전</h2>" in response.text


def test_browser_page_in_english(client):
    response = client.get("/learn/mahjongg?lang=en")
    assert response.status_code == 200
    assert '<html lang="en">' in response.text
    assert "<h2>Mahjongg Pyramids</h2>" in response.text


def test_unknown_game_is_404(client):
    assert client.get("/learn/nope").status_code == 404


def test_index_lists_every_game(client):
    response = client.get("/learn")
    assert response.status_code == 200
    for manifest in core.manifests():
        assert f'href="/learn/{manifest.name}?lang=' in response.text
