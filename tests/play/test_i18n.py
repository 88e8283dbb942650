"""The message catalogue: complete in English and Korean, and used where players read."""

from __future__ import annotations

from typing import Any

import pytest
from typer.testing import CliRunner

from pyramids.cli.main import app
from pyramids.play.i18n import (
    UnknownLanguageError,
    _,
    catalogue_json,
    check_language,
    current_language,
    negotiate,
    ngettext,
    set_language,
)
from tests.scripts import load_script


def _catalogue_tool() -> Any:
    return load_script("scripts/update_catalogue.py", "update_catalogue")


def test_every_marked_message_is_in_both_catalogues_and_translated() -> None:
    tool = _catalogue_tool()
    template = tool.extract()
    marked = {m.id if isinstance(m.id, str) else m.id[0] for m in template if m.id}
    assert len(marked) > 20
    for lang in ("en", "ko"):
        messages = catalogue_json(lang)["messages"]
        missing = sorted(marked - set(messages))
        assert not missing, f"{lang}: run scripts/update_catalogue.py; missing {missing[:5]}"
        assert tool.missing(tool.merged(template, lang)) == [], f"{lang}: untranslated"


def test_korean_keeps_every_placeholder() -> None:
    import re

    english = catalogue_json("en")["messages"]
    korean = catalogue_json("ko")["messages"]
    for message_id, text in korean.items():
        assert message_id in english
        texts = text if isinstance(text, list) else [text]
        source = english[message_id]
        # Korean has one form for every count: it says what the English plural says
        # (an English singular may leave out {count}: "the next pair doubled").
        wanted = set(re.findall(r"\{\w+\}", source[-1] if isinstance(source, list)
                                else message_id))
        for form in texts:
            assert set(re.findall(r"\{\w+\}", form)) == wanted, (message_id, form)


# A game's terms have one Korean word each, wherever they are read: the board's legend
# said 캡스톤 and 차이 where the move log beside it said 머릿돌 and 폭.
KOREAN_TERMS = {
    "capstone": "캡스톤", "vault": "매장실", "spread": "차이", "swap zone": "교환 구역",
    "scarab": "스카라브", "papyrus": "파피루스",
}


@pytest.mark.parametrize("term", sorted(KOREAN_TERMS))
def test_korean_says_each_game_term_with_one_word(term: str) -> None:
    import re

    korean = catalogue_json("ko")["messages"]
    for message_id, text in korean.items():
        if term not in re.sub(r"\{\w+\}", "", message_id).lower():
            continue
        for form in text if isinstance(text, list) else [text]:
            assert KOREAN_TERMS[term] in form, (message_id, form)


def test_korean_says_a_deal_with_one_word_not_the_layouts() -> None:
    """A deal is 배분 (the lobby's daily deal panel said 오늘의 배분 in one line and
    오늘의 배치 in the next); 배치 is a layout's word (and a seating's), never a deal's."""
    import re

    korean = catalogue_json("ko")["messages"]
    checked = 0
    for message_id, text in korean.items():
        english = re.sub(r"\{\w+\}", "", message_id).lower()
        if not re.search(r"\bdeal(s|'s)?\b", english) or re.search(r"layout|seat|deal=", english):
            continue
        checked += 1
        for form in text if isinstance(text, list) else [text]:
            assert "배치" not in form, (message_id, form)
    assert checked >= 20


def test_korean_gives_each_bonus_of_the_mahjongg_log_its_unit() -> None:
    """The log's points of a pair, one part after another ("짝 200점, 연속 보너스 200점"):
    each part reads with its unit, "빠른 짝 보너스 50" said 50 what?"""
    import re

    from babel.messages.pofile import read_po

    with _catalogue_tool().po_path("ko").open("rb") as stream:
        catalog = read_po(stream, locale="ko")
    parts = [message for message in catalog
             if isinstance(message.id, str) and re.search(r"[a-z] \{points\}$", message.id)
             and any(path.endswith("logs/mahjongg.py") for path, _line in message.locations)]
    assert len(parts) >= 4
    for message in parts:
        assert "{points}점" in message.string, (message.id, message.string)


def test_korean_names_what_to_type_in_words_not_english_placeholders() -> None:
    """A Korean player read "--resume FILE을 주세요" and "pyramids verify-room RECORD":
    the English's placeholders for what to type, where the Korean help names them in
    words (경로). Code and file names keep their letters (`FILE-seats.csv`)."""
    import re

    placeholder = re.compile(r"(?<![\w-])(?:FILE|RECORD|PATH|GAME|NAME|TEXT)(?![A-Za-z0-9_-])")
    for message_id, text in catalogue_json("ko")["messages"].items():
        for form in text if isinstance(text, list) else [text]:
            assert not placeholder.search(form), (message_id, form)


def test_languages_are_named_and_checked() -> None:
    assert check_language("ko_KR.UTF-8") == "ko"
    assert check_language("en-GB") == "en"
    with pytest.raises(UnknownLanguageError, match="allowed: en, ko"):
        check_language("fr")
    assert negotiate("ko-KR,ko;q=0.9,en;q=0.5") == "ko"
    assert negotiate("fr-FR, en;q=0.3, ko;q=0.4") == "ko"
    assert negotiate("de") == "en"
    assert negotiate(None) == "en"


def test_environment_and_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "ko_KR.UTF-8")
    monkeypatch.delenv("LANGUAGE", raising=False)
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    set_language(None)
    try:
        assert current_language() == "ko"
        assert _("Game over.") == "게임이 끝났습니다."
        set_language("en")
        assert _("Game over.") == "Game over."
    finally:
        set_language(None)


def test_plurals_and_numbers_follow_the_locale() -> None:
    singular = "{count} '{kind}' move, for example {examples}"
    plural = "{count} '{kind}' moves, for example {examples}"
    assert ngettext(singular, plural, 1, "en", kind="x", examples="a") == (
        "1 'x' move, for example a")
    assert ngettext(singular, plural, 1500, "en", kind="x", examples="a") == (
        "1,500 'x' moves, for example a")
    assert ngettext(singular, plural, 2, "ko", kind="x", examples="a") == "'x' 수 2개, 예: a"


def test_the_plain_prompt_speaks_korean() -> None:
    try:
        result = CliRunner().invoke(app, ["play", "pacal-solo", "--plain", "--seed", "3",
                                          "--lang", "ko"], input="quit\n")
    finally:
        set_language(None)
    assert result.exit_code == 0, result.output
    assert "1번 자리, 둘 차례입니다>" in result.output
    assert "둘 수 있는 수:" in result.output
    assert "게임은 저장되지 않았습니다" in result.output


def test_an_unknown_language_is_one_line() -> None:
    result = CliRunner().invoke(app, ["rules", "pacal", "--lang", "xx"])
    assert result.exit_code == 2
    assert "no messages in language 'xx'; allowed: en, ko" in result.output


def test_every_message_the_browser_pages_ask_for_is_in_the_catalogue() -> None:
    """Each t("...") and tn("...", "...") in the pages' scripts, read straight from the
    source: the extractor skips a call inside another call's arguments, which left
    Temple's "nothing" and "{count} unit" in English on Korean pages."""
    import json
    import re
    from pathlib import Path

    static = Path(__file__).parents[2] / "src/pyramids/web/static"
    literal = r'"((?:[^"\\]|\\.)*)"'
    calls = re.compile(rf'\bt\(\s*{literal}|\btn\(\s*{literal}\s*,\s*{literal}')
    asked = set()
    for path in sorted(static.glob("*.js")):
        code = "\n".join(line for line in path.read_text(encoding="utf-8").splitlines()
                         if not line.lstrip().startswith("//"))
        for match in calls.finditer(code):
            asked.add(json.loads(f'"{match.group(1) or match.group(2)}"'))
    assert {"nothing", "{count} unit", "Set nothing"} <= asked and len(asked) > 200
    for lang in ("en", "ko"):
        messages = catalogue_json(lang)["messages"]
        assert sorted(asked - set(messages)) == [], lang


@pytest.mark.parametrize(("written", "read"), [
    ("2번 자리: 15와(과) 42을(를) 내놓았습니다.", "2번 자리: 15와 42를 내놓았습니다."),
    ("당신: 13을(를) 골랐습니다. 40은(는) 돌아옵니다", "당신: 13을 골랐습니다. 40은 돌아옵니다"),
    ("카드이(가) 있습니다", "카드가 있습니다"),
    ("보석이(가) 있습니다", "보석이 있습니다"),
    ("'37'을(를)", "'37'을"),
    ("1,000을(를)", "1,000을"),
    ("서울(으)로, 집(으)로", "서울로, 집으로"),
    ("offer이(가) 아닙니다", "offer이(가) 아닙니다"),  # a Latin word: both stay
])
def test_korean_particles_follow_the_sound_before_them(written: str, read: str) -> None:
    from pyramids.play.i18n import korean_particles

    assert korean_particles(written) == read


def test_a_korean_message_with_a_value_gets_its_particle() -> None:
    """The catalogue writes "{card}을(를)"; the player reads one particle."""
    import re

    from pyramids.play.i18n import gettext

    message = next(key for key, text in catalogue_json("ko")["messages"].items()
                   if isinstance(text, str) and "{card}을(를)" in text)
    values = {name: 15 for name in re.findall(r"\{(\w+)\}", message)}
    said = gettext(message, lang="ko", **values)
    assert "15를" in said and "15을(를)" not in said


def test_the_resume_command_keeps_a_language_chosen_against_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A game played with --lang ko told the player to resume with a command that
    brought it back in English (the environment's language)."""
    from pyramids.play.i18n import set_language
    from pyramids.play.session import replay_command, resume_command

    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    try:
        set_language("ko")
        assert resume_command("g.json") == "pyramids play --resume g.json --lang ko"
        assert replay_command("g.json") == "pyramids replay g.json --lang ko"
        monkeypatch.setenv("LANG", "ko_KR.UTF-8")
        assert resume_command("g.json") == "pyramids play --resume g.json"
        set_language(None)
        assert resume_command("g.json") == "pyramids play --resume g.json"
    finally:
        set_language(None)
