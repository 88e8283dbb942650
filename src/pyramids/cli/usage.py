"""Mistakes on the command line (an unknown option, a missing argument, a value of the
wrong kind) said in the reader's language, as the commands' own errors are.

Typer (through Click) finds these before any command runs and writes them in
English; `main` runs the app without Click's own handling and words them here.
"""

from __future__ import annotations

import contextlib
import difflib
import re
import sys
from types import ModuleType
from typing import Any

import typer

from pyramids.core.errors import N_, Words
from pyramids.play.i18n import UnknownLanguageError, _, set_language, words_text


def click_exceptions() -> ModuleType:
    """Click's exceptions: vendored by newer Typer, the `click` package for older."""
    try:
        from typer._click import exceptions
    except ImportError:  # Typer before it vendored Click
        import click.exceptions as exceptions  # type: ignore[no-redef]
    return exceptions


# What Typer says of a value of the wrong kind (pydantic's words), in catalogue words.
VALUE_PROBLEMS = (
    (re.compile(r"Input should be a valid integer"), N_("a whole number is needed")),
    (re.compile(r"Input should be a valid number"), N_("a number is needed")),
    (re.compile(r"Input should be (?:greater than or equal to|>=) (\S+)"),
     N_("at least {limit}")),
    (re.compile(r"Input should be (?:less than or equal to|<=) (\S+)"), N_("at most {limit}")),
    (re.compile(r"is not a valid integer"), N_("a whole number is needed")),
    (re.compile(r"is not one of (.+)\.?$"), N_("one of {limit}")),
)


def _value_problem(message: str) -> Words | str:
    for pattern, words in VALUE_PROBLEMS:
        found = pattern.search(message)
        if found:
            limit = found.group(1).rstrip(".") if found.groups() else ""
            return Words(words, limit=limit)
    return message


def _name_of(error: Any) -> str:
    param = getattr(error, "param", None)
    if param is None:
        return str(getattr(error, "param_hint", "") or "")
    opts = getattr(param, "opts", None) or [getattr(param, "name", "")]
    if getattr(param, "param_type_name", "") == "argument":  # as its help names it
        return str(getattr(param, "metavar", None) or getattr(param, "name", opts[0])).upper()
    return " / ".join(opts)


def _unknown_command(name: str, ctx: Any) -> Words:
    """An unknown command with the ones its group has (`solve pacal`: only mahjongg is
    solved) and the closest, as Typer suggests them."""
    group = getattr(getattr(ctx, "command", None), "commands", {})
    commands = [known for known, command in group.items()
                if not getattr(command, "hidden", False)]
    if not commands:
        return Words(N_("unknown command '{name}'"), name=name)
    similar = difflib.get_close_matches(name, commands)
    if similar and len(similar) < len(commands):
        return Words(N_("unknown command '{name}' (did you mean {similar}?); allowed "
                        "commands: {commands}"), name=name, similar=", ".join(similar),
                     commands=", ".join(commands))
    return Words(N_("unknown command '{name}'; allowed commands: {commands}"), name=name,
                 commands=", ".join(commands))


def usage_words(error: Exception) -> Words | str:
    """What was wrong with a command line, as player words."""
    exceptions = click_exceptions()
    message = str(getattr(error, "message", "") or error)
    if isinstance(error, exceptions.NoSuchOption):
        similar = sorted(getattr(error, "possibilities", None) or [])
        if similar:
            return Words(N_("unknown option {name}; did you mean {options}?"),
                         name=error.option_name, options=", ".join(similar))
        return Words(N_("unknown option {name}"), name=error.option_name)
    if isinstance(error, exceptions.MissingParameter):
        return Words(N_("{name} is missing"), name=_name_of(error))
    if isinstance(error, exceptions.BadOptionUsage):
        found = re.match(r"Option '(.+)' requires an argument", message)
        if found:
            return Words(N_("option {name} needs a value"), name=found.group(1))
        return message
    if isinstance(error, exceptions.BadParameter):
        return Words(N_("{name}: {problem}"), name=_name_of(error),
                     problem=_value_problem(message))
    found = re.match(r"No such command '(.+)'\.", message)
    if found:
        return _unknown_command(found.group(1), getattr(error, "ctx", None))
    found = re.match(r"Got unexpected extra argument(?:s|\(s\))? \((.+)\)", message)
    if found:
        return Words(N_("unexpected words at the end: {words}"), words=found.group(1))
    return message


def show_usage_error(error: Exception) -> None:
    """The mistake and where to read the command's help, on stderr, in two lines."""
    problem = usage_words(error)
    text = words_text(problem) if isinstance(problem, Words) else problem
    typer.echo(_("error: {problem}", problem=text), err=True)
    ctx = getattr(error, "ctx", None)
    command = ctx.command_path if ctx is not None else "pyramids"
    typer.echo(_("See: {command} --help", command=command), err=True)


def language_asked(args: list[str]) -> str | None:
    """The `--lang` of a command line, read before Click parses it: a mistake found
    before the option is applied is still said in that language."""
    for index, arg in enumerate(args):
        if arg == "--lang" and index + 1 < len(args):
            return args[index + 1]
        if arg.startswith("--lang="):
            return arg.partition("=")[2]
    return None


# What a value is, in `--help`: a word, as Click writes it, instead of newer Typer's
# Python types ("<str>", "<list[str]>"); a flag takes no value, so it shows none.
HELP_TYPES = {
    "str": N_("TEXT"), "list[str]": N_("TEXT"), "int": N_("INTEGER"),
    "int range": N_("INTEGER"), "float": N_("NUMBER"), "float range": N_("NUMBER"),
    "path": N_("PATH"),
}


def _plain_type(param: Any) -> None:
    display_type = getattr(param, "display_type", None)
    if display_type is None or not hasattr(param, "display_type_rich"):
        return  # an older Typer: Click's own words already
    if getattr(param, "is_flag", False):
        label = None
    else:
        shown = display_type(None)
        plain = HELP_TYPES.get(shown.strip("<>"))
        label = _(plain) if plain else shown
    param.display_type_rich = lambda ctx, label=label: label


HELP_OPTION = N_("Show this message and exit.")

# Typer's own words around the help (`typer.rich_utils`' panel titles and marks).
HELP_FRAME = {
    "ARGUMENTS_PANEL_TITLE": N_("Arguments"),
    "OPTIONS_PANEL_TITLE": N_("Options"),
    "COMMANDS_PANEL_TITLE": N_("Commands"),
    "ERRORS_PANEL_TITLE": N_("Error"),
    "REQUIRED_LONG_STRING": N_("[required]"),
    "ABORTED_TEXT": N_("Aborted."),
}
DEFAULT_MARK = N_("[default: {value}]")
USAGE_PREFIX = N_("Usage:")
# The usage line's placeholders for the options and for a group's command.
OPTIONS_METAVAR = N_("[OPTIONS]")
SUBCOMMAND_METAVAR = N_("COMMAND [ARGS]...")


def readable_frame() -> None:
    """Typer's panel titles and marks in the reader's language. A Typer without
    these names (the plain Click help) keeps its English frame."""
    try:
        from typer import rich_utils
    except ImportError:  # Typer without Rich
        return
    for name, message in HELP_FRAME.items():
        if hasattr(rich_utils, name):
            setattr(rich_utils, name, _(message))
    if hasattr(rich_utils, "DEFAULT_STRING"):
        # Typer fills this one with str.format's `{}`.
        rich_utils.DEFAULT_STRING = _(DEFAULT_MARK).replace("{value}", "{}")
    _help_text_folds(rich_utils)


def _help_text_folds(rich_utils: ModuleType) -> None:
    """Help that does not fit its column goes on the next line, not cut off. Rich's
    table cuts a line with an ellipsis, and in Korean (letters two cells wide) its
    wrapping left a line a cell too wide: `serve --help` lost a word in six places at
    100 columns ("소유자만 읽을 … 있게"). Folded, no word is lost."""
    make = getattr(rich_utils, "_make_rich_text", None)
    if make is None or getattr(make, "folds", False):
        return

    def folded(**kwargs: Any) -> Any:
        text = make(**kwargs)
        if hasattr(text, "overflow"):  # Markdown help has none
            text.overflow = "fold"
        return text

    folded.folds = True  # type: ignore[attr-defined]
    rich_utils._make_rich_text = folded  # type: ignore[attr-defined]


def _argument_named_in_capitals(param: Any) -> None:
    """An argument shown as GAME, as Click names it and the docs write it, in the
    usage line and its panel alike; newer Typer shows the parameter's own name."""
    if getattr(param, "param_type_name", "") == "argument" and param.metavar is None:
        param.metavar = param.name.upper()


def _usage_piece(piece: str) -> str:
    """A required argument as Click writes it (GAME); newer Typer braces it ({GAME}),
    which reads as a template left unfilled."""
    braced = re.fullmatch(r"\{(.+)\}((?:\.\.\.)?)", piece)
    return braced.group(1) + braced.group(2) if braced else piece


def _readable_usage(command: Any) -> None:
    """The usage line in the reader's language ("Usage:", "[OPTIONS]") and Click's
    words for the arguments."""
    if getattr(command, "options_metavar", None):
        command.options_metavar = _(OPTIONS_METAVAR)
    if getattr(command, "subcommand_metavar", None):
        command.subcommand_metavar = _(SUBCOMMAND_METAVAR)

    def format_usage(ctx: Any, formatter: Any) -> None:
        pieces = [_usage_piece(piece) for piece in command.collect_usage_pieces(ctx)]
        formatter.write_usage(ctx.command_path, " ".join(pieces), prefix=_(USAGE_PREFIX) + " ")

    command.format_usage = format_usage


def help_texts(command: Any) -> list[str]:
    """Every help text of `command` and its subcommands (the commands' docstrings and
    each option's and argument's `help`), in order: the catalogue's messages."""
    texts = [text for text in (command.help, getattr(command, "short_help", None)) if text]
    texts += [param.help for param in getattr(command, "params", [])
              if getattr(param, "help", None)]
    for sub in getattr(command, "commands", {}).values():
        texts += help_texts(sub)
    return texts


def readable_help(command: Any) -> None:
    """`command`'s and its subcommands' help in the reader's language (the catalogue
    has each text: `help_texts`), with value types as words (`HELP_TYPES`)."""
    if command.help:
        command.help = _(command.help)
    if getattr(command, "short_help", None):
        command.short_help = _(command.short_help)
    for param in getattr(command, "params", []):
        if getattr(param, "help", None):
            param.help = _(param.help)
        _plain_type(param)
        _argument_named_in_capitals(param)
    made = command.get_help_option  # `--help` is made when the help is shown

    def help_option(ctx: Any) -> Any:
        option = made(ctx)
        if option is not None:
            option.help = _(HELP_OPTION)
            _plain_type(option)
        return option

    command.get_help_option = help_option
    _readable_usage(command)
    for sub in getattr(command, "commands", {}).values():
        readable_help(sub)


def run(app: typer.Typer, args: list[str] | None = None) -> int:
    """Run the app as the `pyramids` command would; the exit status."""
    exceptions = click_exceptions()
    lang = language_asked(args or [])
    if lang is not None:
        with contextlib.suppress(UnknownLanguageError):  # the option says so when parsed
            set_language(lang)
    command = typer.main.get_command(app)
    readable_frame()
    readable_help(command)
    try:
        code = command(args, prog_name="pyramids", standalone_mode=False)
    except exceptions.UsageError as error:
        if type(error).__name__ == "NoArgsIsHelpError":  # `pyramids` alone: the help
            error.show()
        else:
            show_usage_error(error)
        return 2
    except exceptions.ClickException as error:
        error.show()
        return int(error.exit_code)
    except typer.Abort:  # Ctrl-C or the end of input where a command asked
        typer.echo("", err=True)
        return 130
    return code if isinstance(code, int) else 0


def main(app: typer.Typer) -> None:
    sys.exit(run(app, sys.argv[1:]))
