"""Every `pyramids ...` command the README and the docs show parses with the real
command line, and every `python benchmarks/...` line with its script's parser:
users copy them, so renaming a command or an option without fixing the page fails
here. Nothing is run: each line is resolved to its command and its options
checked, and a whole command in a code block is parsed as Click (or argparse)
would."""

from __future__ import annotations

import argparse
import re
import shlex
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer

from pyramids.cli.main import app
from tests.scripts import load_script

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", ROOT / "benchmarks" / "README.md",
         *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^\s*```")
SHELL_BREAKS = {">", ">>", "|", "&&", ";", "2>&1"}


def _code_lines(text: str) -> Iterator[tuple[int, str, bool]]:
    """(line number, text, in a code block) of each line of code on a page: a code
    block's lines (fenced, continuations joined, or indented) and each inline code
    span."""
    in_block = False
    pending: tuple[int, str] | None = None
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            in_block = not in_block
            continue
        if in_block:
            start, joined = pending if pending is not None else (number, "")
            joined = f"{joined} {line.strip()}".strip()
            pending = None
            if joined.endswith("\\"):
                pending = (start, joined[:-1].strip())
                continue
            yield start, joined, True
        elif line.startswith("    ") and not line.lstrip().startswith(("-", "*")):
            yield number, line.strip(), True  # an indented code block
        else:
            for span in re.findall(r"`([^`]+)`", line):
                yield number, span.strip(), False


def _joined_synopses(lines: list[tuple[int, str, bool]]) -> Iterator[tuple[int, str, bool]]:
    """A usage synopsis goes on under its command on lines that open with `[`."""
    for index, (number, line, in_block) in enumerate(lines):
        if in_block and line.startswith("["):
            continue
        following = [text for _, text, block in lines[index + 1:index + 4] if block]
        while in_block and following and following[0].startswith("["):
            line = f"{line} {following.pop(0)}"
        yield number, line, in_block


def _expanded(line: str, variables: dict[str, str]) -> str:
    for name, value in variables.items():
        line = line.replace(f"${name}", value)
    return line


def doc_commands(program: str) -> list[tuple[str, str, bool]]:
    """(where, command, in a code block) of each command on the pages that starts
    with `program`, a block's shell variables (`B=...`, `python $B`) filled in."""
    found = []
    for page in PAGES:
        lines = list(_code_lines(page.read_text(encoding="utf-8")))
        variables: dict[str, str] = {}
        for number, line, in_block in _joined_synopses(lines):
            assigned = re.fullmatch(r"([A-Z_]+)=(\S+)", line)
            if in_block and assigned:
                variables[assigned.group(1)] = assigned.group(2)
            command = _expanded(re.sub(r"^(nice -n \d+ )", "", line), variables)
            if command == program or command.startswith(f"{program} "):
                found.append((f"{page.relative_to(ROOT)}:{number}", command, in_block))
    return found


def _words(command: str) -> list[str]:
    """The command's words up to a comment or what the shell does with its output
    (a `|` inside a synopsis's brackets, `[--step | --tui]`, is a choice)."""
    words: list[str] = []
    for word in shlex.split(command, comments=True)[1:]:
        in_brackets = "".join(words).count("[") > "".join(words).count("]")
        if word in SHELL_BREAKS and not in_brackets:
            break
        if word != "|":
            words.append(word)
    return words


def _option_names(command: Any) -> set[str]:
    return {name for param in command.params if param.param_type_name == "option"
            for name in (*param.opts, *param.secondary_opts)} | {"--help"}


def _option_words(words: list[str]) -> Iterator[str]:
    for word in words:
        word = word.strip("[]")
        if re.match(r"-{1,2}[A-Za-z]", word):
            yield word.partition("=")[0]


def _resolve(root: Any, words: list[str]) -> tuple[Any, list[str], list[str]]:
    """The command the words name, its path, and the words left for it. The root's
    own options (`--lang ko`) may come before the command."""
    command, path, rest = root, ["pyramids"], list(words)
    while getattr(command, "commands", None):
        while rest and rest[0].startswith("-"):
            option = rest.pop(0)
            param = next((param for param in command.params
                          if option.partition("=")[0] in param.opts), None)
            assert param is not None, f"{' '.join(path)} has no option {option}"
            if "=" not in option and not param.is_flag and rest:
                rest.pop(0)  # its value
        if not rest:
            break
        name = rest.pop(0)
        assert name in command.commands, (
            f"{' '.join(path)} has no command {name!r}; it has {sorted(command.commands)}")
        command, path = command.commands[name], [*path, name]
    return command, path, rest


def check_command(command_line: str, whole: bool) -> None:
    """Fail with words if the line names a command or an option the CLI lacks; a
    `whole` command (copied from a code block) must parse as Click parses it."""
    root = typer.main.get_command(app)
    command, path, rest = _resolve(root, _words(command_line))
    for option in _option_words(rest):
        assert option in _option_names(command), (
            f"{' '.join(path)} has no option {option}; it has "
            f"{sorted(_option_names(command))}")
    if whole and not getattr(command, "commands", None) and "[" not in command_line:
        command.make_context(" ".join(path), [word for word in rest if word != "..."])


class _Parsed(Exception):
    """Stops a benchmark once its parser is made: the test reads the parser."""


def benchmark_parser(script: str) -> argparse.ArgumentParser:
    """The parser a benchmark's `main` makes, without running the benchmark."""
    name = Path(script).stem
    try:
        module = load_script(script, f"docs_benchmark_{name}")
    except ImportError as error:  # an extra this install lacks (the server's)
        pytest.skip(f"{script} needs {error.name}")
    made: list[argparse.ArgumentParser] = []

    def capture(parser: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        made.append(parser)
        raise _Parsed

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(argparse.ArgumentParser, "parse_args", capture)
        patch.setattr(sys, "argv", [script])
        with pytest.raises(_Parsed):
            module.main()
    return made[0]


def _argparse_options(parser: argparse.ArgumentParser) -> set[str]:
    """Every option string of the parser and of its subcommands' parsers."""
    names: set[str] = set()
    for action in parser._actions:
        names.update(action.option_strings)
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                names |= _argparse_options(sub)
    return names


def check_benchmark(command_line: str, whole: bool) -> None:
    """A `python benchmarks/NAME.py ...` line names only the script's options; a
    whole one parses as the script parses it."""
    script, *rest = _words(command_line)
    assert (ROOT / script).is_file(), f"no script {script}"
    parser = benchmark_parser(script)
    for option in _option_words(rest):
        assert option in _argparse_options(parser), (
            f"{script} has no option {option}; it has {sorted(_argparse_options(parser))}")
    if whole and "[" not in command_line:
        try:
            parser.parse_args(rest)
        except SystemExit as stopped:
            raise AssertionError(f"{script} refuses {rest}") from stopped


COMMANDS = doc_commands("pyramids")
BENCHMARKS = [(where, command, whole) for where, command, whole in doc_commands("python")
              if _words(command) and _words(command)[0].startswith("benchmarks/")]


def test_commands_are_found_in_fenced_indented_and_inline_code() -> None:
    page = "\n".join([
        "Play `pyramids play pacal --vs hard` or", "", "    pyramids games", "",
        "```", "pyramids arena temple --agents greedy \\", "    --games 4 > a.json", "```",
        "- a list item", "    that goes on, pyramids aside",
    ])
    assert [(number, line, whole) for number, line, whole in _code_lines(page)
            if line.startswith("pyramids")] == [
        (1, "pyramids play pacal --vs hard", False), (3, "pyramids games", True),
        (6, "pyramids arena temple --agents greedy --games 4 > a.json", True)]


def test_the_pages_show_commands_of_every_kind() -> None:
    names = {_words(command)[0] for _, command, _ in COMMANDS if _words(command)}
    assert {"play", "arena", "balance", "serve", "solve", "layout", "rules"} <= names
    assert sum(whole for *_, whole in COMMANDS) > 40


@pytest.mark.parametrize(("where", "command", "whole"), COMMANDS,
                         ids=[where for where, *_ in COMMANDS])
def test_a_command_the_docs_show_parses(where: str, command: str, whole: bool) -> None:
    check_command(command, whole)


@pytest.mark.parametrize(("where", "command", "whole"), BENCHMARKS,
                         ids=[where for where, *_ in BENCHMARKS])
def test_a_benchmark_command_the_docs_show_parses(where: str, command: str,
                                                  whole: bool) -> None:
    check_benchmark(command, whole)


def test_a_misspelt_benchmark_option_is_caught() -> None:
    assert len({_words(command)[0] for _, command, _ in BENCHMARKS}) >= 12
    check_benchmark("python benchmarks/pacal_solo_value.py fit --deals 20", True)
    with pytest.raises(AssertionError, match="has no option --deal;"):
        check_benchmark("python benchmarks/pacal_solo_value.py fit --deal 20", False)
    with pytest.raises(AssertionError, match="refuses"):
        check_benchmark("python benchmarks/temple_balance_study.py sweeps --games 4", True)


@pytest.mark.parametrize("script", sorted({_words(command)[0] for _, command, _ in BENCHMARKS}))
def test_a_benchmark_takes_no_shortened_option(script: str) -> None:
    """argparse took `--deal 20` as `--deals 20` and `--expert 5` as `--expert-games 5`,
    so a typo ran a measurement with a setting the reader did not ask for."""
    parser = benchmark_parser(script)
    subs = [sub for action in parser._actions
            if isinstance(action, argparse._SubParsersAction)
            for sub in action.choices.values()]
    for each in [parser, *subs]:
        assert each.allow_abbrev is False, f"{each.prog} takes shortened options"


def test_a_shortened_option_is_refused_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    parser = benchmark_parser("benchmarks/strength.py")
    assert parser.parse_args(["--expert-games", "5"]).expert_games == 5
    with pytest.raises(SystemExit):
        parser.parse_args(["--expert", "5"])
    assert "unrecognized arguments: --expert 5" in capsys.readouterr().err


@pytest.mark.parametrize(("command", "whole", "problem"), [
    ("pyramids arena pacal --agnets greedy,random --games 4", False,
     "pyramids arena has no option --agnets"),
    ("pyramids solve mahjongg --seed 7 --nodes-limit 10", False, "no option --nodes-limit"),
    ("pyramids layout infos turtle", False, "pyramids layout has no command 'infos'"),
    ("pyramids --language ko games", False, "pyramids has no option --language"),
    ("pyramids arena pacal --agents greedy --games many", True, "valid integer"),
    ("pyramids replay game.json [--step | --tuix]", False, "no option --tuix"),
])
def test_a_misspelt_command_or_option_is_caught(command: str, whole: bool,
                                                problem: str) -> None:
    with pytest.raises(Exception, match=problem):
        check_command(command, whole)
