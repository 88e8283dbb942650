"""The terminal app's options screen (F2, "Game options"): the game's options in words,
each with its value now, to change before a new game at the same table.

The words are the lobby's (`pyramids.play.option_words`) and the checks the game's
own: each value through its `Option.coerce`, then the game built with them all, so a
combination the engine refuses (Mahjongg's catch-up turn order in Co-op) is refused
here in the engine's words, the screen open and the game in progress untouched.

The number of seats is the table's (the menu keeps the seats) and the board is the
board chooser's, so neither is offered here.
"""

from __future__ import annotations

from typing import Any, Literal

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Input, Select, Static

from pyramids.core import Game, Option, OptionError, PyramidsError, game_manifest
from pyramids.play.i18n import _, words_text
from pyramids.play.option_words import choice_title, doc_with_titles, option_title
from pyramids.tui.board import HIDES_BOARD, translate_bindings

FIELD_PREFIX = "option-"


def settable_specs(game: Game) -> list[Option]:
    """The options a player may change between games at this table."""
    skipped = {game_manifest(game.name).players_option, getattr(type(game), "board_option", None)}
    return [spec for spec in game.option_specs if spec.name not in skipped]


def options_menu_choices(game: Game) -> tuple[tuple[str, str], ...]:
    """The game menu's entry for the options screen (none for a game without options)."""
    if not settable_specs(game):
        return ()
    return (("options", _("Game options")),)


def value_choices(spec: Option) -> list[tuple[str, Any]] | None:
    """(words, value) for each value of an option chosen from a list; None for one typed."""
    if spec.kind is bool:
        return [(_("on"), True), (_("off"), False)]
    if spec.choices is not None:
        return [(_(choice_title(spec.name, value)), value) for value in spec.choices]
    return None


def about_text(spec: Option) -> str:
    """What the option means and, for a typed one, what may be typed."""
    lines = [_(option_title(spec.name))]
    if spec.doc:
        lines.append(doc_with_titles(spec))
    if value_choices(spec) is None:
        lines.append(_("Allowed: {allowed}", allowed=words_text(spec.allowed_words())))
    return "\n".join(lines)


class OptionsScreen(ModalScreen[Game | None]):
    """Change the options of `game`: answers the game with the options chosen (checked
    by the engine), or None (Escape, Back)."""

    BINDINGS = [Binding("escape", "back", "Back")]
    DEFAULT_CSS = """
    OptionsScreen { align: center middle; }
    OptionsScreen > Vertical { width: 100; max-width: 95%; height: 90%;
                               border: thick $accent; background: $panel; padding: 0 1; }
    OptionsScreen #options-list { height: 1fr; }
    OptionsScreen .option-row { height: auto; }
    OptionsScreen .option-title { width: 50%; padding: 0 1 0 0; }
    OptionsScreen .option-row Select, OptionsScreen .option-row Input { width: 1fr; }
    OptionsScreen #options-about { height: auto; max-height: 6; color: $text-muted;
                                   overflow-y: auto; }
    OptionsScreen #options-error { height: auto; color: $error; }
    OptionsScreen #options-buttons { height: auto; }
    OptionsScreen #options-buttons Button { width: 1fr; margin: 0 1 0 0; }
    """

    def __init__(self, game: Game) -> None:
        super().__init__(classes=HIDES_BOARD)
        translate_bindings(self, {"back": _("Back")})
        self.game = game
        self.specs = settable_specs(game)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(_("Game options. Tab moves between them; Enter opens a list, arrows "
                           "and Enter choose. The new game keeps the seats. Escape goes "
                           "back without changes."), id="options-question")
            with VerticalScroll(id="options-list", can_focus=False):
                for spec in self.specs:
                    with Horizontal(classes="option-row"):
                        yield Static(_(option_title(spec.name)), classes="option-title")
                        yield self._field(spec)
            yield Static("", id="options-about")
            yield Static("", id="options-error")
            with Horizontal(id="options-buttons"):
                yield Button(_("Play with these options"), id="options-start",
                             variant="primary", compact=True)
                yield Button(_("Back"), id="options-back", compact=True)

    def _field(self, spec: Option) -> Widget:
        value = self.game.options[spec.name]
        choices = value_choices(spec)
        if choices is not None:
            return Select(choices, value=value, allow_blank=False, compact=True,
                          id=FIELD_PREFIX + spec.name)
        kind: Literal["integer", "number", "text"] = (
            "integer" if spec.kind is int else "number" if spec.kind is float else "text")
        return Input(str(value), type=kind, compact=True, id=FIELD_PREFIX + spec.name,
                     valid_empty=False)

    def on_mount(self) -> None:
        if self.specs:
            self.query_one(f"#{FIELD_PREFIX}{self.specs[0].name}").focus()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """Say what the option with the keyboard means (a Select's list is inside it)."""
        spec = self._spec_of(event.widget)
        if spec is not None:
            self.query_one("#options-about", Static).update(about_text(spec))

    def _spec_of(self, widget: Widget) -> Option | None:
        by_name = {spec.name: spec for spec in self.specs}
        for node in widget.ancestors_with_self:
            name = (node.id or "").removeprefix(FIELD_PREFIX)
            if node.id and node.id.startswith(FIELD_PREFIX) and name in by_name:
                return by_name[name]
        return None

    def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()
        self._say("")

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self._say("")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_start()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "options-start":
            self.action_start()
        else:
            self.action_back()

    def _say(self, text: str) -> None:
        self.query_one("#options-error", Static).update(text)

    def chosen_options(self) -> dict[str, Any] | None:
        """Every option of the game, those on screen as chosen, each checked by its own
        rule; None (the first bad one said and given the keyboard) where one is not."""
        options = dict(self.game.options)
        for spec in self.specs:
            field = self.query_one(f"#{FIELD_PREFIX}{spec.name}")
            raw = field.value if isinstance(field, Select | Input) else None
            try:
                options[spec.name] = spec.coerce(self.game.name, raw)
            except OptionError:
                title = _(option_title(spec.name))
                allowed = words_text(spec.allowed_words())
                if isinstance(raw, str) and not raw.strip():
                    self._say(_("{option}: no value; allowed: {allowed}", option=title,
                                allowed=allowed))
                else:
                    self._say(_("{option}: {value} is not allowed; allowed: {allowed}",
                                option=title, value=raw, allowed=allowed))
                field.focus()
                return None
        return options

    def action_start(self) -> None:
        options = self.chosen_options()
        if options is None:
            return
        try:
            chosen = type(self.game)(**options)
        except PyramidsError as error:
            self._say(_("These options cannot be played: {reason}", reason=words_text(error)))
            return
        self.dismiss(chosen)

    def action_back(self) -> None:
        self.dismiss(None)
