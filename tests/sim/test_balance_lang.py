"""The balance report in its reader's language: report.md in Korean, the figures' files
unchanged, and the English report as the reports kept in docs/balance read."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from pyramids.play.i18n import format_number, words_text
from pyramids.sim.arena import GameResult
from pyramids.sim.balance import (
    CSV_TABLES,
    Reader,
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
