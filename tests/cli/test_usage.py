"""Mistakes on the command line, said in the reader's language (`pyramids.cli.usage`)."""

from __future__ import annotations

import re

import pytest

from pyramids.cli.main import app
from pyramids.cli.usage import language_asked, run
from pyramids.play.i18n import set_language


@pytest.fixture(autouse=True)
def english_after() -> object:
    yield None
    set_language(None)


@pytest.mark.parametrize(("args", "english", "korean"), [
    (["arena", "pacal", "--colour"], "error: unknown option --colour",
     "오류: 알 수 없는 옵션 --colour"),
    (["arena", "pacal", "--agents", "greedy", "--game", "3"],
     "error: unknown option --game; did you mean --games?",
     "오류: 알 수 없는 옵션 --game. --games을(를) 말씀하신 건가요?"),
    (["arena"], "error: GAME is missing", "오류: GAME이(가) 빠졌습니다"),
    (["arena", "pacal", "--agents", "greedy", "--games", "x"],
     "error: --games / -n: a whole number is needed", "오류: --games / -n: 정수가 필요합니다"),
    (["arena", "pacal", "--agents"], "error: option --agents needs a value",
     "오류: --agents 옵션에는 값이 필요합니다"),
    (["solve", "pacal"], "error: unknown command 'pacal'; allowed commands: mahjongg",
     "오류: 알 수 없는 명령 'pacal'. 있는 명령: mahjongg"),
    (["layout", "lst"],
     "error: unknown command 'lst' (did you mean list?); allowed commands: list, info, show, "
     "validate, convert",
     "오류: 알 수 없는 명령 'lst'(list을(를) 말씀하신 건가요?). 있는 명령: list, info, show, "
     "validate, convert"),
    (["games", "extra"], "error: unexpected words at the end: extra",
     "오류: 끝에 예상하지 못한 말이 있습니다: extra"),
])
def test_a_command_line_mistake_is_said_in_words_with_where_to_find_help(
        capsys: pytest.CaptureFixture[str], args: list[str], english: str, korean: str
) -> None:
    assert run(app, args) == 2
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == english and lines[1].startswith("See: pyramids")
    assert lines[1].endswith(" --help")
    assert run(app, ["--lang", "ko", *args]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == korean and lines[1].startswith("도움말: pyramids")
    assert "Usage:" not in "\n".join(lines) and "╭" not in "\n".join(lines)


def test_an_unknown_command_names_every_command_of_its_group(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert run(app, ["--lang", "ko", "nosuch"]) == 2
    said = capsys.readouterr().err.splitlines()[0]
    assert said.startswith("오류: 알 수 없는 명령 'nosuch'. 있는 명령: games, play, ")
    assert all(f" {name}" in said for name in ("simulate", "arena", "balance", "solve"))


def test_commands_keep_their_exit_status(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(app, ["games"]) == 0
    assert "pacal-solo" in capsys.readouterr().out
    # A command's own refusal (typer.Exit(2)) and an unknown language.
    assert run(app, ["rules", "chess"]) == 2
    assert "allowed games" in capsys.readouterr().err
    assert run(app, ["--lang", "xx", "games"]) == 2
    assert "allowed: en, ko" in capsys.readouterr().err


def test_the_language_is_read_before_the_command_line_is_parsed() -> None:
    assert language_asked(["--lang", "ko", "nosuch"]) == "ko"
    assert language_asked(["--lang=ko", "games"]) == "ko"
    assert language_asked(["games"]) is None
    assert language_asked(["games", "--lang"]) is None


def test_the_command_alone_shows_its_help_not_an_error(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert run(app, []) == 2
    said = capsys.readouterr()
    assert "Usage: pyramids" in said.out + said.err and "error:" not in said.out + said.err


def test_games_fit_an_80_column_terminal_in_both_languages() -> None:
    from rich.cells import cell_len
    from typer.testing import CliRunner

    for lang in ("en", "ko"):
        result = CliRunner().invoke(app, ["--lang", lang, "games"], env={"COLUMNS": "80"})
        lines = result.output.splitlines()
        assert max(cell_len(line) for line in lines) <= 80
        names = [line.split()[0] for line in lines if not line.startswith(" ")]
        assert {"pacal", "pacal-solo", "temple", "mahjongg"} <= set(names)


def _command_paths(command: object, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = [path]
    for name, sub in getattr(command, "commands", {}).items():
        found += _command_paths(sub, (*path, name))
    return found


def test_every_help_names_value_types_in_words_and_flags_take_none(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Newer Typer shows Python's types ("<str>", "<bool>" beside a flag, which takes
    no value); the help reads TEXT, INTEGER, PATH, or nothing for a flag."""
    import typer

    monkeypatch.setenv("COLUMNS", "200")
    paths = _command_paths(typer.main.get_command(app))
    assert ("layout", "info") in paths and len(paths) > 15
    for path in paths:
        assert run(app, [*path, "--help"]) == 0
        shown = capsys.readouterr().out
        assert not re.search(r"<(str|int|bool|float|path|list)", shown), (path, shown)
        help_row = next(line for line in shown.splitlines() if "--help" in line)
        assert help_row.split("--help")[1].split()[:2] == ["Show", "this"], help_row
    assert run(app, ["play", "--help"]) == 0
    rows = {line.split()[1]: line for line in capsys.readouterr().out.splitlines()
            if line.startswith("│ --")}
    assert rows["--seed"].split()[2] == "INTEGER" and rows["--save"].split()[2] == "PATH"
    assert rows["--plain"].split()[2] == "Line"  # a flag: no type


def test_usage_lines_name_arguments_as_the_docs_write_them(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Newer Typer writes a required argument as `{game}`, a template left unfilled to
    the reader; the usage line and the arguments panel say GAME as the docs do
    (`pyramids rules GAME`), and a missing argument is named as its help names it."""
    import typer

    monkeypatch.setenv("COLUMNS", "200")
    for path, usage in [(["arena"], "pyramids arena [OPTIONS] GAME"),
                        (["play"], "pyramids play [OPTIONS] [GAME]"),
                        (["layout", "info"], "pyramids layout info [OPTIONS] FILE_OR_NAME")]:
        assert run(app, [*path, "--help"]) == 0
        shown = capsys.readouterr().out
        assert f"Usage: {usage}" in shown, shown
        argument = usage.split()[-1].strip("[]")
        assert any(line.split()[1:3] in ([argument, "TEXT"], ["*", argument])
                   for line in shown.splitlines() if line.startswith("│")), shown
    for path in _command_paths(typer.main.get_command(app)):
        assert run(app, ["--lang", "ko", *path, "--help"]) == 0
        usage_line = next(line for line in capsys.readouterr().out.splitlines()
                          if "사용법:" in line)
        assert "{" not in usage_line and "}" not in usage_line, (path, usage_line)
    assert run(app, ["--lang", "en", "layout", "info"]) == 2
    assert capsys.readouterr().err.startswith("error: FILE_OR_NAME is missing")


def test_the_usage_line_and_value_types_are_in_the_reader_s_language(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The Korean help kept Click's English placeholders ([OPTIONS], COMMAND [ARGS]...,
    TEXT, INTEGER) between its translated words; they come from the catalogue too."""
    monkeypatch.setenv("COLUMNS", "200")
    assert run(app, ["--lang", "ko", "--help"]) == 0
    assert "사용법: pyramids [옵션] 명령 [인자]..." in capsys.readouterr().out
    assert run(app, ["--lang", "ko", "play", "--help"]) == 0
    korean = capsys.readouterr().out
    assert "사용법: pyramids play [옵션] [GAME]" in korean
    rows = {line.split()[1]: line for line in korean.splitlines() if line.startswith("│ --")}
    assert rows["--seed"].split()[2] == "정수" and rows["--save"].split()[2] == "경로"
    assert not re.search(r"\b(TEXT|INTEGER|NUMBER|PATH|OPTIONS|COMMAND|ARGS)\b", korean)
    assert run(app, ["--lang", "en", "play", "--help"]) == 0
    assert "Usage: pyramids play [OPTIONS] [GAME]" in capsys.readouterr().out


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_help_that_does_not_fit_goes_on_the_next_line_not_cut_off(
        lang: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """At 100 columns the Korean `serve --help` lost a word in six places, each cut
    with an ellipsis ("소유자만 읽을 … 있게"): Rich's wrapping of two-cell letters left
    a line a cell too wide. Every help line now reads whole."""
    monkeypatch.setenv("COLUMNS", "100")
    for path in (["serve"], ["balance"], ["play"], ["arena"]):
        assert run(app, ["--lang", lang, *path, "--help"]) == 0
        shown = capsys.readouterr().out
        assert "\u2026" not in shown, (path, [line for line in shown.splitlines()
                                            if "\u2026" in line])


def test_a_force_option_names_the_option_whose_file_it_replaces() -> None:
    """`--force` is read beside the option it concerns (`--csv`, `--out`, `--output`);
    a name the command does not show (layout convert once said OUT) leaves the reader
    guessing which file goes."""
    import typer

    root = typer.main.get_command(app)
    forced = []
    for path in _command_paths(root):
        command = root
        for name in path:
            command = command.commands[name]  # type: ignore[attr-defined]
        params = getattr(command, "params", [])
        force = next((param for param in params if "--force" in param.opts), None)
        if force is None:
            continue
        others = {opt for param in params if param is not force for opt in param.opts
                  if opt.startswith("--")}
        named = set(re.findall(r"--[a-z][a-z-]*", force.help or ""))
        assert named and named <= others, (path, force.help)
        forced.append(path)
    assert ("layout", "convert") in forced and ("arena",) in forced


def test_help_is_in_the_reader_s_language(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Each command's and option's help comes from the catalogue (the extraction reads
    them from the app: tests/play/test_i18n.py checks each has its Korean)."""
    import typer

    from pyramids.cli.usage import HELP_OPTION, help_texts
    from pyramids.play.i18n import gettext

    monkeypatch.setenv("COLUMNS", "200")
    texts = help_texts(typer.main.get_command(app))
    assert "Seed (a fresh one is shown if omitted)." in texts and len(texts) > 60
    assert all(gettext(text, lang="ko") != text for text in [*texts, HELP_OPTION])
    assert run(app, ["--lang", "ko", "play", "--help"]) == 0
    korean = capsys.readouterr().out
    assert "시드 (빠뜨리면 새 시드를 정해 보여 줍니다)." in korean
    assert "이 도움말을 보여 주고 끝냅니다." in korean and "Seed (" not in korean
    # Typer's frame too: the usage line, the panels' titles and the marks.
    assert "사용법: pyramids play" in korean and "╭─ 옵션" in korean and "╭─ 인자" in korean
    assert "Usage" not in korean and "Options" not in korean and "Arguments" not in korean
    assert run(app, ["--lang", "ko", "serve", "--help"]) == 0
    serve = capsys.readouterr().out
    assert "[기본값: 8000]" in serve and "default" not in serve
    set_language("en")
    assert run(app, ["play", "--help"]) == 0  # and English for an English reader
    english = capsys.readouterr().out
    assert "Seed (a fresh one is shown if omitted)." in english
    assert "Usage: pyramids play" in english and "╭─ Options" in english
    assert run(app, ["serve", "--help"]) == 0
    assert "[default: 8000]" in capsys.readouterr().out


def test_the_version_is_printed() -> None:
    from importlib import metadata

    from typer.testing import CliRunner

    from pyramids.cli.main import app

    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout == f"pyramids {metadata.version('pyramids')}\n"
