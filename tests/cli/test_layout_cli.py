"""`pyramids layout list | info | show | validate | convert`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pyramids.cli.main import app
from pyramids.games.mahjongg.blueprints import layout_names, load_layout
from pyramids.games.mahjongg.blueprints.difficulty import TIERS as TIER_BOUNDS
from pyramids.games.mahjongg.blueprints.difficulty import tier_of
from pyramids.games.mahjongg.layout_format import read_layout_file

runner = CliRunner()
DATA = Path(__file__).parents[1] / "games/mahjongg/data/kmahjongg"
TIERS = [name for name, _ in TIER_BOUNDS]


def invoke(*args: str):
    return runner.invoke(app, ["layout", *args])


def test_info_prints_the_figures() -> None:
    result = invoke("info", "turtle")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    for expected in ("tiles: 144", "layers: 5", "width: 31", "height: 16", "free at start: 35",
                     "capstones: 1", "vaults: 0", "face down: 0", "name: turtle"):
        assert expected in lines


def test_info_json_of_a_file() -> None:
    result = invoke("info", str(DATA / "castle.layout"), "--json")
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert figures["tiles"] == 156 and figures["layers"] == 4
    assert figures["title"] == "Castle"
    assert sum(figures["tiles_per_layer"]) == 156


def list_output(columns: int, *options: str) -> list[str]:
    result = runner.invoke(app, [*options, "layout", "list"], env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.output
    return result.output.splitlines()


def cells(line: str) -> int:
    from rich.cells import cell_len

    return cell_len(line)


def test_list_on_a_wide_terminal_has_a_line_per_layout_with_its_tier_and_title() -> None:
    lines = list_output(200)
    rows = {line.split()[0]: line for line in lines[1:]}
    assert sorted(rows) == layout_names()
    words = rows["pharaohs-tomb"].split()
    assert words[1:3] == ["144", "5"] and words[3] in TIERS
    assert rows["pharaohs-tomb"].endswith("Pharaoh's Tomb")
    assert max(cells(line) for line in lines) <= 200


def test_list_fits_an_80_column_terminal_with_the_title_under_each_layout() -> None:
    """At 80 columns (the width a pipe gets too) each layout takes two lines: its
    figures, then its title and the bots' clear rates; no line is wider."""
    lines = list_output(80)
    assert max(cells(line) for line in lines) <= 80
    assert lines[0].split()[:3] == ["layout", "tiles", "layers"]
    assert lines[1].startswith("  title") and lines[1].endswith("(easy/medium/hard/expert)")
    pairs = dict(zip(lines[2::2], lines[3::2], strict=True))
    names = [figures.split()[0] for figures in pairs]
    assert names == layout_names()
    figures = next(line for line in pairs if line.startswith("pharaohs-tomb "))
    assert figures.split()[1:3] == ["144", "5"] and figures.split()[3] in TIERS
    title_line = pairs[figures]
    assert title_line.startswith("  Pharaoh's Tomb ")
    assert title_line.split()[-1].count("%") == 4  # easy/medium/hard/expert


def test_list_in_korean_translates_titles_and_tiers() -> None:
    wide = list_output(200, "--lang", "ko")
    row = next(line for line in wide if line.startswith("great-sphinx "))
    assert row.endswith("기자의 대스핑크스")
    assert row.split()[3] in ("초급", "중급", "상급", "최상급")
    narrow = list_output(80, "--lang", "ko")
    assert max(cells(line) for line in narrow) <= 80  # a Korean syllable takes two cells
    index = narrow.index(next(line for line in narrow if line.startswith("great-sphinx ")))
    assert narrow[index + 1].startswith("  기자의 대스핑크스")


def test_list_json_gives_every_layout_with_tier_and_figures() -> None:
    result = invoke("list", "--json")
    assert result.exit_code == 0, result.output
    entries = json.loads(result.output)
    assert [entry["name"] for entry in entries] == layout_names()
    for entry in entries:
        layout = load_layout(entry["name"])
        assert (entry["tiles"], entry["layers"]) == (layout.size, layout.layers)
        figures = entry["figures"]
        assert figures is not None, f"{entry['name']} has no measured difficulty"
        assert entry["tier"] == figures["tier"] == tier_of(figures["estimated_minutes"])
        assert 0 <= figures["unsolvable_share"] <= 1
        for level in ("easy", "medium", "hard", "expert"):
            assert 0 <= figures[f"clear_rate_{level}"] <= 1


def test_show_draws_tiles_with_half_offsets_and_markers() -> None:
    result = invoke("show", "giza-step-ramp", "--plain")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    base = lines.index("layer 0 (50 tiles)")
    assert lines[base + 1].startswith("\u250co\u2500\u2510\u250co\u2500\u2510")
    assert "\u250cV\u2500\u2510" in lines[base + 1]
    upper = lines.index("layer 1 (21 tiles)")
    # Layer 1 starts 3 cells in (x=3): 6 characters, half a tile off the base.
    row = lines[upper + 3]
    assert row.startswith(" " * 6 + "\u250co") and not row.startswith(" " * 7)
    assert any("\u250cC\u2500\u2510" in line for line in lines)


def test_show_side_by_side_puts_layers_on_one_line() -> None:
    result = runner.invoke(
        app, ["layout", "show", "sphinx-guard", "-s", "--plain"], env={"COLUMNS": "200"}
    )
    assert result.exit_code == 0, result.output
    assert any("layer 0 (56 tiles)" in line and "layer 1 (32 tiles)" in line
               for line in result.output.splitlines())


def test_validate_a_sound_blueprint_and_a_kmahjongg_file() -> None:
    result = invoke("validate", "pharaohs-tomb")
    assert result.exit_code == 0
    assert "ok: pharaohs-tomb: 144 tiles, 5 layers, 0 warnings" in result.output
    assert "unlocks every vault" in result.output
    result = invoke("validate", str(DATA / "castle.layout"))
    assert result.exit_code == 0 and "ok: castle: 156 tiles" in result.output
    # A larger board than the tile set is playable, and says what it costs.
    assert ("warning: 156 tiles: more than the 144 of a tile set, so the set repeats"
            in result.output)
    assert "0 warnings" in invoke("validate", "great-zenith").output


def test_validate_lists_each_problem_with_its_place(tmp_path: Path) -> None:
    path = tmp_path / "bad.pyr"
    path.write_text("pyramids-layout 1\nmark: capstone 9 9 0\nlayer 0\noo\nlayer 1\n...o\n")
    result = invoke("validate", str(path))
    assert result.exit_code == 2
    out = result.output
    assert "error: line 4, column 1, tile at x=0 y=0 layer 0: overlaps the tile at x=1" in out
    assert "error: line 6, column 4, tile at x=3 y=0 layer 1: floats" in out
    assert "error: line 2, tile at x=9 y=9 layer 0: 'mark: capstone' names no tile" in out
    assert "error: 3 tiles: a layout needs an even number of tiles" in out


def test_validate_kmahjongg_oddities_are_warnings(tmp_path: Path) -> None:
    path = tmp_path / "odd.layout"
    path.write_text("kmahjongg-layout-v1.1\nw6\nh3\nd2\n1.1...\n......\n......\n"
                    "....1.\n1.....\n......\n")
    result = invoke("validate", str(path))
    assert result.exit_code == 0, result.output
    assert "warning: tile at x=4 y=0 layer 1: floats" in result.output


def test_syntax_error_is_one_line_and_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "bad.pyr"
    path.write_text("pyramids-layout 1\nlayer 0\no?\n")
    result = invoke("validate", str(path))
    assert result.exit_code == 2
    assert result.output.strip().count("\n") == 0
    assert f"{path}: line 3, column 2: unknown character '?'" in result.output  # the file
    result = invoke("info", "cheops")
    assert result.exit_code == 2 and "unknown layout 'cheops'" in result.output


def test_convert_kmahjongg_to_pyr(tmp_path: Path) -> None:
    out = tmp_path / "castle.pyr"
    result = invoke("convert", str(DATA / "castle.layout"), "-o", str(out))
    assert result.exit_code == 0, result.output
    converted = read_layout_file(out)
    original = load_layout(str(DATA / "castle.layout"))
    assert converted.positions == original.positions
    assert converted.capstones == original.capstones
    assert converted.title == "Castle"
    # The file is not replaced without --force.
    out.write_text("mine")
    result = invoke("convert", str(DATA / "castle.layout"), "-o", str(out))
    assert result.exit_code == 2 and "exists" in result.output
    assert out.read_text() == "mine"
    result = invoke("convert", "turtle", "-o", str(out), "--force", "--name", "turtle-copy")
    assert result.exit_code == 0
    assert read_layout_file(out).name == "turtle-copy"


def test_convert_and_validate_refuse_a_kmahjongg_file_with_overlapping_tiles(
    tmp_path: Path,
) -> None:
    # Two '1's of layer 0 one cell apart: the tiles share the cells x=1, y=0..1.
    path = tmp_path / "clash.layout"
    path.write_text("kmahjongg-layout-v1.1\nw8\nh2\nd1\n11..1.1.\n........\n")
    out = tmp_path / "clash.pyr"
    result = invoke("convert", str(path), "-o", str(out))
    assert result.exit_code == 2
    assert f"{path}: line 5, column 1, tile at x=0 y=0 layer 0: this tile overlaps the " \
        "tile at x=1 y=0 (line 5, column 2)" in result.output
    assert not out.exists()
    # A layout the player already has there is left as it was, even with --force.
    out.write_text("mine")
    result = invoke_ko("convert", str(path), "-o", str(out), "--force")
    assert result.exit_code == 2
    assert f"{path}: 5행 1열, x=0 y=0 층 0의 타일: " in result.output
    assert "overlaps" not in result.output
    assert out.read_text() == "mine"
    result = runner.invoke(app, ["--lang", "en", "layout", "validate", str(path)])
    assert result.exit_code == 2 and "this tile overlaps the tile at x=1 y=0" in result.output


def invoke_ko(*args: str):
    return runner.invoke(app, ["--lang", "ko", "layout", *args])


def test_info_in_korean() -> None:
    result = invoke_ko("info", "turtle")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    for expected in ("이름: turtle", "제목: 거북", "타일: 144", "층: 5", "너비: 31", "높이: 16",
                     "층별 타일: 87 36 16 4 1", "시작할 때 자유 타일: 35", "캡스톤: 1",
                     "매장실: 0", "뒤집힌 타일: 0"):
        assert expected in lines
    assert "tiles" not in result.output and "free at start" not in result.output


def test_malformed_file_in_korean_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "hostname.pyr"
    path.write_text("vm\n")
    result = invoke_ko("validate", str(path))
    assert result.exit_code == 2
    assert result.output.strip() == (
        f"오류: {path}: 1행: 배치 파일은 'pyramids-layout 1'로 시작해야 합니다. "
        "'vm'은(는) 안 됩니다")
    path.write_text("pyramids-layout 1\nlayer 0\no?\n")
    result = invoke_ko("validate", str(path))
    assert result.exit_code == 2
    assert result.output.startswith(
        f"오류: {path}: 3행 2열: 층 0에 알 수 없는 문자 '?'이(가) 있습니다")


def test_validate_in_korean_lists_each_problem(tmp_path: Path) -> None:
    path = tmp_path / "bad.pyr"
    path.write_text("pyramids-layout 1\nmark: capstone 9 9 0\nlayer 0\noo\nlayer 1\n...o\n")
    result = invoke_ko("validate", str(path))
    assert result.exit_code == 2
    lines = result.output.splitlines()
    assert lines[:4] == [
        "오류: 2행, x=9 y=9 층 0의 타일: 'mark: capstone'이(가) 가리키는 타일이 없습니다 "
        "(그 자리가 왼쪽 위 칸인 타일이 없습니다)",
        "오류: 4행 1열, x=0 y=0 층 0의 타일: 층 0의 x=1 y=0 타일과 겹칩니다 "
        "(한 층의 두 타일이 한 칸을 함께 씁니다)",
        "오류: 6행 4열, x=3 y=0 층 1의 타일: 떠 있습니다: 아래에 층 0의 타일이 없습니다",
        "오류: 타일 3개: 배치의 타일 수는 짝수여야 합니다",
    ]
    assert f"{path}: 오류 4개, 경고 0개" in lines
    english = runner.invoke(app, ["--lang", "en", "layout", "validate", str(path)])
    assert f"{path}: 4 errors, 0 warnings" in english.output.splitlines()


def test_validate_and_show_in_korean_when_sound() -> None:
    result = invoke_ko("validate", "pharaohs-tomb")
    assert result.exit_code == 0, result.output
    assert "이상 없음: pharaohs-tomb: 타일 144개, 5층, 경고 0개; 모든 매장실을 열면서" \
        in result.output
    result = invoke_ko("show", "giza-step-ramp", "--plain")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "층 0 (타일 50개)" in lines
    assert lines[-1] == "o 보통  C 캡스톤  V 매장실  D 뒤집힌 타일  * 표시 여럿"


def test_convert_in_korean_refuses_to_replace_a_file(tmp_path: Path) -> None:
    out = tmp_path / "castle.pyr"
    out.write_text("mine")
    result = invoke_ko("convert", str(DATA / "castle.layout"), "-o", str(out))
    assert result.exit_code == 2
    assert result.output.strip() == f"오류: {out}이(가) 이미 있습니다. 바꾸려면 --force를 주세요"
    assert out.read_text() == "mine"
    result = invoke_ko("convert", "turtle", "-o", str(out), "--force", "--name", "Bad Name")
    assert result.exit_code == 2 and "배치 이름은 영문 소문자" in result.output
    assert out.read_text() == "mine"
    result = invoke_ko("convert", "turtle", "-o", str(out), "--force")
    assert result.exit_code == 0, result.output
    assert result.output.strip() == f"{out}에 썼습니다: 타일 144개, 5층"


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_convert_to_a_folder_says_it_is_a_folder(tmp_path: Path, lang: str) -> None:
    """It said "{folder} exists; give --force to replace it", and --force then said the
    folder cannot be written: the error names the problem the first time."""
    result = runner.invoke(app, ["--lang", lang, "layout", "convert", "turtle",
                                 "-o", str(tmp_path)])
    assert result.exit_code == 2
    expected = {"en": f"error: cannot write '{tmp_path}': it is a folder, not a file",
                "ko": f"오류: '{tmp_path}'에 쓸 수 없습니다: 파일이 아니라 폴더입니다"}[lang]
    assert result.output.strip() == expected
    assert list(tmp_path.iterdir()) == []


def test_convert_to_stdout() -> None:
    result = invoke("convert", "giza-step-ramp")
    assert result.exit_code == 0
    assert result.output.startswith("pyramids-layout 1\n#")
    assert "\nname: giza-step-ramp\n" in result.output


def test_info_wraps_a_long_description_at_the_terminal_width_between_words() -> None:
    """Pharaoh's Tomb's description is 223 characters: on 80 and 60 columns it is
    broken at spaces, the lines after the first indented, no word cut and none lost."""
    description = load_layout("pharaohs-tomb").description
    english = ("--lang", "en")
    for columns, options in ((80, english), (60, english), (60, ("--lang", "ko")),
                             (80, ("--lang", "ko"))):
        result = runner.invoke(app, [*options, "layout", "info", "pharaohs-tomb"],
                               env={"COLUMNS": str(columns)})
        assert result.exit_code == 0, result.output
        lines = result.output.splitlines()
        assert max(cells(line) for line in lines) <= columns
        start = next(index for index, line in enumerate(lines)
                     if line.startswith(("description: ", "설명: ")))
        end = next(index for index, line in enumerate(lines) if line.startswith(("tiles", "타일")))
        assert end - start >= 3  # wrapped, not one long line
        assert all(line.startswith("  ") and line[2] != " " for line in lines[start + 1:end])
        joined = " ".join(line.strip() for line in lines[start:end])
        if options == english:
            assert joined == f"description: {description}"
    wide = runner.invoke(app, [*english, "layout", "info", "pharaohs-tomb"],
                         env={"COLUMNS": "300"})
    assert f"description: {description}" in wide.output.splitlines()


def test_wrap_cells_counts_korean_as_two_cells_and_keeps_long_words_whole() -> None:
    from pyramids.cli.common import wrap_cells

    assert wrap_cells("aa bb cc", 5) == "aa bb\n  cc"
    assert wrap_cells("가나 다라", 6) == "가나\n  다라"  # 11 cells on one line
    assert wrap_cells("가나 다라", 11) == "가나 다라"
    assert wrap_cells("a supercalifragilistic word", 8) == "a\n  supercalifragilistic\n  word"
    assert wrap_cells("short", 80) == "short"


def test_convert_writes_a_file_others_can_read(tmp_path: Path) -> None:
    """Not mkstemp's private 0600: the umask decides (0644 under 022)."""
    import os
    import stat

    previous = os.umask(0o022)
    try:
        out = tmp_path / "castle.pyr"
        assert invoke("convert", str(DATA / "castle.layout"), "-o", str(out)).exit_code == 0
        assert stat.S_IMODE(out.stat().st_mode) == 0o644
    finally:
        os.umask(previous)


def test_garbage_in_a_dot_layout_file_is_told_the_kmahjongg_header(tmp_path: Path) -> None:
    """A `.layout` name promises a KMahjongg file: garbage there is told the KMahjongg
    headers, not the .pyr format's; a .pyr text under that name still reads, and garbage
    in a `.pyr` file still gets the .pyr error."""
    garbage = tmp_path / "mine.layout"
    garbage.write_text("hello world\nthis is not a layout\n")
    for command in (("validate", str(garbage)), ("info", str(garbage))):
        result = invoke(*command)
        assert result.exit_code == 2
        assert (f"{garbage}: line 1: not a KMahjongg layout: it must be "
                "'kmahjongg-layout-v1.1' or 'kmahjongg-layout-v1.0', got 'hello world'"
                in result.stderr)
        assert "pyramids-layout" not in result.stderr
    pyr_text = tmp_path / "pyr-inside.layout"
    assert invoke("convert", "giza-step-ramp", "-o", str(pyr_text)).exit_code == 0
    assert invoke("validate", str(pyr_text)).exit_code == 0
    assert load_layout(str(pyr_text)) == load_layout("giza-step-ramp")
    pyr = tmp_path / "mine.pyr"
    pyr.write_text("hello world\n")
    assert "starts with 'pyramids-layout 1'" in invoke("validate", str(pyr)).stderr



@pytest.mark.parametrize("command", [["layout", "info", "{}"], ["layout", "validate", "{}"],
                                     ["play", "mahjongg", "--plain", "-o", "layout={}"]])
def test_a_folder_given_as_a_layout_is_called_a_folder(tmp_path: Path,
                                                       command: list[str]) -> None:
    """Not "unknown layout 'designs': 56 layouts are shipped", which says the name is
    wrong when the folder is there, and a file in it was meant."""
    folder = tmp_path / "designs"
    folder.mkdir()
    result = runner.invoke(app, [word.format(folder) for word in command])
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1
    assert result.output.strip().endswith(
        f"'{folder}' is a folder, not a layout file: give the path of a .pyr or KMahjongg "
        ".layout file in it, or a shipped layout's name")
