"""The balance report in its reader's language: report.md in Korean, the figures' files
unchanged, and the English report as the reports kept in docs/balance read."""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Callable
from pathlib import Path

import pytest

from pyramids.play.i18n import format_number, words_text
from pyramids.sim.arena import GameResult
from pyramids.sim.balance import (
    CSV_TABLES,
    Reader,
    choose_plot_font,
    findings,
    player_count_figures,
    plot_font,
    report_markdown,
    run_balance,
    write_report,
)

KOREAN = Reader("ko", words_text, format_number)
DOCS = Path(__file__).resolve().parents[2] / "docs" / "balance"

# Three Latin-letter words in a row, once code spans, pictures and option keys are out:
# an English phrase left in a Korean report.
_CODE = re.compile(r"`[^`]*`|!\[[^\]]*\]\([^)]*\)")
_ENGLISH = re.compile(r"[A-Za-z][\w'%.-]*(?:[ ,;:()]+[A-Za-z][\w'%.-]*){2,}")


def english_left(markdown: str) -> list[str]:
    return [run for line in markdown.splitlines()
            for run in _ENGLISH.findall(_CODE.sub(" ", line))]


def _game(index: int, winner: int) -> GameResult:
    returns = [-1.0, -1.0]
    returns[winner] = 1.0
    return GameResult(index=index, deal=index, seats=["g", "g"], returns=returns, length=10,
                      metrics={"rounds": 5, "capped": 1.0}, seconds={}, moves={})


def test_a_korean_report_has_no_english_sentence_left(tmp_path: Path) -> None:
    temple = run_balance("temple", 20, [2, 3])
    # The lines of an agent that thinks by the clock and of a file an option names.
    temple |= {"thinks_by_clock": True,
               "files": {"layout": {"path": "mine.layout", "sha256": "0" * 64}}}
    pacal = run_balance("pacal", 20, [None], options={"max_rounds": 3})
    for name, report in (("temple", temple), ("pacal", pacal)):
        korean = write_report(report, tmp_path / name / "ko", KOREAN).read_text(encoding="utf-8")
        assert english_left(korean) == [], name
        assert "자리별 승률" in korean and "발견 사항" in korean
        assert "1번 자리는 자리 배치의 첫 자리일 뿐" in korean  # the game's seat-order note
        # The Reproduce line is still a command, in the language it was made in.
        command = re.search(r"`(pyramids [^`]*)`", korean)
        assert command is not None
        assert shlex.split(command.group(1))[:4] == ["pyramids", "--lang", "ko", "balance"]
        english = write_report(report, tmp_path / name / "en").read_text(encoding="utf-8")
        assert "`pyramids balance " in english and "--lang" not in english
        assert english_left(english)  # the check does see English
        # The figures' files are for programs: the same keys and numbers in any language.
        for data in ("balance.json", *CSV_TABLES):
            assert ((tmp_path / name / "ko" / data).read_bytes()
                    == (tmp_path / name / "en" / data).read_bytes())
    # Seats named and stalls counted, in Korean too.
    lopsided = [_game(i, 0) for i in range(40)] + [_game(40 + i, 1) for i in range(10)]
    notes = findings({"by_players": {"2": player_count_figures(lopsided, ["g"])}}, KOREAN)
    assert english_left("\n".join(notes)) == []
    assert any("1번 자리의 승률은 80.0%" in note and "높습니다" in note for note in notes)
    assert any("게임 50판 중 50판" in note for note in notes)


def test_the_english_report_reads_as_the_reports_kept_in_docs() -> None:
    kept = sorted(DOCS.rglob("balance.json"))
    assert kept
    for path in kept:
        report = json.loads(path.read_text(encoding="utf-8"))
        plots = sorted((p.name for p in path.parent.glob("*.png")), reverse=True)
        assert report_markdown(report, plots) == (
            path.with_name("report.md").read_text(encoding="utf-8")), path


@pytest.mark.filterwarnings("ignore:Glyph")  # the stand-in font has no Hangul
def test_the_plots_follow_the_report_where_a_font_draws_its_letters(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from PIL import Image

    import pyramids.sim.balance as balance

    def title(folder: str) -> str:
        return str(Image.open(tmp_path / folder / "seat_win_rates.png").info["Title"])

    report = run_balance("temple", 4, [2])
    monkeypatch.setattr(balance, "plot_font", lambda lang: None)
    without = write_report(report, tmp_path / "none", KOREAN).read_text(encoding="utf-8")
    assert "그래프의 제목, 축, 범례는 영어로" in without
    assert title("none") == "temple (default options): seat win rates (dashed: fair share)"
    monkeypatch.setattr(balance, "plot_font", lambda lang: "DejaVu Sans" if lang == "ko" else None)
    drawn = write_report(report, tmp_path / "font", KOREAN).read_text(encoding="utf-8")
    assert "영어로" not in drawn
    assert title("font") == "temple (기본 옵션): 자리별 승률(점선: 공정 몫)"
    write_report(report, tmp_path / "en")
    assert title("en") == title("none")


def test_a_font_of_boxes_is_not_taken_for_one_that_draws_hangul() -> None:
    # matplotlib's Last Resort font has a glyph for every letter: a box.
    assert not (plot_font("ko") or "").startswith("Last Resort")
    assert plot_font("en") is None


def _fake_draws(drawn: dict[str, str]) -> Callable[[str, str], bool]:
    """A stand-in glyph check: each fake font file draws the letters listed for it."""
    asked: list[str] = []

    def draws(file: str, letters: str) -> bool:
        asked.append(file)
        return all(letter in drawn.get(file, "") for letter in letters)

    draws.asked = asked  # type: ignore[attr-defined]
    return draws


HANGUL = "한국어자리별승률"


def test_the_plot_font_is_one_made_for_korean_first_then_any_that_draws_it() -> None:
    """The choice over a fake font list (nothing installed): a Korean font before a
    fallback that happens to hold Hangul, whatever the list's order; else the first
    font that draws every sample letter; never Last Resort (boxes), nor a font with
    only some of the letters; none at all where nothing draws them."""
    fonts = [("DejaVu Sans", "/f/dejavu.ttf"), ("Droid Sans Fallback", "/f/droid.ttf"),
             ("NanumGothic", "/f/nanum.ttf"), ("Noto Sans CJK KR", "/f/noto.ttc"),
             ("Noto Sans CJK KR", "/f/noto-bold.ttc")]
    every = {"/f/droid.ttf": HANGUL, "/f/nanum.ttf": HANGUL, "/f/noto.ttc": HANGUL,
             "/f/noto-bold.ttc": HANGUL, "/f/lr.ttf": HANGUL}
    assert choose_plot_font(fonts, "ko", _fake_draws(every)) == "Noto Sans CJK KR"
    no_noto = {key: value for key, value in every.items() if "noto" not in key}
    assert choose_plot_font(fonts, "ko", _fake_draws(no_noto)) == "NanumGothic"
    fallback_only = {"/f/droid.ttf": HANGUL}
    assert choose_plot_font(fonts, "ko", _fake_draws(fallback_only)) == "Droid Sans Fallback"
    # A font holding only some of the letters would draw the rest as boxes.
    partial = {"/f/droid.ttf": "한국어", "/f/nanum.ttf": HANGUL}
    assert choose_plot_font(fonts[:3], "ko", _fake_draws(partial)) == "NanumGothic"
    boxes = [("DejaVu Sans", "/f/dejavu.ttf"), ("Last Resort High-Efficiency", "/f/lr.ttf")]
    assert choose_plot_font(boxes, "ko", _fake_draws(every)) is None
    assert choose_plot_font([], "ko", _fake_draws(every)) is None
    draws = _fake_draws(every)
    assert choose_plot_font(fonts, "en", draws) is None and draws.asked == []  # type: ignore[attr-defined]
    # A file listed twice (its styles) is opened once.
    draws = _fake_draws({})
    assert choose_plot_font(fonts + fonts, "ko", draws) is None
    assert sorted(draws.asked) == sorted({file for _name, file in fonts})  # type: ignore[attr-defined]


def test_plot_font_reads_matplotlibs_font_list(monkeypatch: pytest.MonkeyPatch) -> None:
    from matplotlib import font_manager

    import pyramids.sim.balance as balance

    listed = [font_manager.FontEntry(fname="/f/dejavu.ttf", name="DejaVu Sans"),
              font_manager.FontEntry(fname="/f/nanum.ttf", name="NanumGothic")]
    monkeypatch.setattr(font_manager.fontManager, "ttflist", listed)
    monkeypatch.setattr(balance, "_draws_letters", _fake_draws({"/f/nanum.ttf": HANGUL}))
    plot_font.cache_clear()
    try:
        assert plot_font("ko") == "NanumGothic"
        assert balance.plot_language("ko") == "ko"
        plot_font.cache_clear()
        monkeypatch.setattr(font_manager.fontManager, "ttflist", listed[:1])
        assert plot_font("ko") is None
        assert balance.plot_language("ko") == "en"
    finally:
        plot_font.cache_clear()


@pytest.mark.filterwarnings("ignore:Glyph")  # the stand-in font has no Hangul
def test_balance_says_in_one_line_that_its_plots_fell_back_to_english(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a Hangul font, `pyramids --lang ko balance` drew its plots in English and
    said so only inside report.md; the command now says it too, in the reader's words."""
    from typer.testing import CliRunner

    import pyramids.sim.balance as balance
    from pyramids.cli.main import app

    args = ["--lang", "ko", "balance", "temple", "--games", "2", "--players", "2"]
    monkeypatch.setattr(balance, "plot_font", lambda lang: None)
    result = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "none")])
    assert result.exit_code == 0, result.output
    notes = [line for line in result.stderr.splitlines() if "그래프" in line]
    assert notes == [notes[0]] and notes[0].startswith("그래프의 제목, 축, 범례는 영어로")
    # Plain words in the terminal: the report's Markdown backticks are not printed.
    assert "`" not in notes[0] and "Noto Sans CJK 같은" in notes[0]
    report = (tmp_path / "none" / "report.md").read_text(encoding="utf-8")
    assert "`Noto Sans CJK`" in report  # the report is Markdown: there it is code
    monkeypatch.setattr(balance, "plot_font", lambda lang: "DejaVu Sans" if lang == "ko" else None)
    result = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "font")])
    assert result.exit_code == 0, result.output
    assert "그래프" not in result.stderr
    english = CliRunner().invoke(app, [*args[2:], "--out", str(tmp_path / "en")])
    assert english.exit_code == 0 and "plots" not in english.stderr
