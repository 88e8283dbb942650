"""The registry of games: one `GameManifest` per game, and `load(name, **options)`.

A manifest is everything the project knows about a game in one object: its
name, title and summary, how to make it, the option that sets its number of
players, its rules page, the option sets the conformance suite plays, and its
*companions*: the greedy policy, the one-player planner, the text renderer,
the terminal board, the browser renderer and the move log. Companions are named by dotted
paths (`"package.module:attribute"`) and imported only when an interface asks
for them, so a rules package never imports an interface, and a game whose
terminal board needs Textual still loads without it.

Games come from two places:
- the built-in packages in `BUILTIN_MODULES`, which call `register` on import;
- any installed distribution that declares an entry point in the group
  `pyramids.games` (see docs/adding-a-game.md). The entry point names a
  `GameManifest`, a list of them, or a function returning either.

A plugin that fails to load, or that reuses a registered name, is skipped with
a warning that names it: one broken package must not stop the others.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata, resources
from typing import Any

from pyramids.core.api import Game
from pyramids.core.errors import N_, UnknownGameError, Words

BUILTIN_MODULES = (
    "pyramids.games.pacal",
    "pyramids.games.temple",
    "pyramids.games.mahjongg",
)
ENTRY_POINT_GROUP = "pyramids.games"

#: The companions a manifest may name, and what each must be.
COMPANIONS = {
    "greedy_policy": "a module with `choose(state, rng) -> action` (and optional search hooks)",
    "planner": "a function `(agent, state) -> action | None` that plans a one-player game",
    "text_renderer": "a function `(view) -> str` drawing a view as plain text",
    "text_notes": "a function `(view, options) -> list[str]` giving the lines a text "
    "screen shows under the view for what the game's options change and the view does "
    "not show (who moves next)",
    "terminal_board": "a Textual `Board` subclass (pyramids.tui.board.Board)",
    "web_renderer": "a JavaScript module file, as `package:file.js`",
    "observation_encoder": "a function `(layout, game) -> writer` filling the RL observation "
    "vector straight from a state (pyramids.rl.encoding)",
    "move_log": "a function `(action, actor, viewer, before, after) -> list[Words]` telling "
    "one move from one audience's views before and after it (pyramids.play.movelog)",
    "move_labels": "a function `(view) -> dict[str, str]` giving, for each word of the "
    "action strings that names a thing by number (a tile), what a person types and reads "
    "instead at line prompts",
}


class CompanionError(UnknownGameError):
    """A manifest names a companion that cannot be imported or found."""


@dataclass(frozen=True)
class GameManifest:
    """One game, declared once.

    `factory(**options)` makes the Game. `variants` are option sets the
    conformance suite (`pyramids.testing.check_game`) plays, the defaults first.
    `rules_page` returns the rules page as Markdown (the reference, as
    implemented); `learn_page(lang)` the page for players in a language (About,
    Components, Rules, Strategy, FAQ, Our decisions), None where it has none in
    that language; `tutorial()` the interactive tutorial as JSON text (see
    `pyramids.play.tutorial`). `players_option` names the
    option that sets the number of seats (None: fixed). `order` places the game
    in lists for players (lower first; ties by name). `view_type` is the
    TypedDict that `state.view()` returns. The companion fields are dotted paths
    (see `COMPANIONS`); None means the interface falls back to its generic part
    (random play, an outline of the view, the raw view with move buttons).

    `seat_order(options)`: what a seat's number means for who plays first, where it
    is not the turn order (Pacal: the apex cards decide who starts), as `Words` (a
    message marked with `N_`, which the balance report translates into its reader's
    language); None (or no function): seat 1 is simply the first seat.

    `ranked_problem(options)`: why a game with these (resolved) options cannot count
    for ratings, as player words saying what to choose instead (Mahjongg in seat
    order, where the first seat wins most games between equal players); None (or no
    function): any options may be ranked.

    `ranked_options(options)`: the option values a ranked game with these (resolved)
    options takes whatever the player chose (Mahjongg at a table of the Standard
    Expedition: turn_order 'behind'), so that a lobby can choose them when "ranked"
    is ticked; {} (or no function): the player's choices may stand.

    `server_option_maximum`: the largest value a server allows for some options,
    where the library allows more than a shared server should host (the rounds
    that keep every game inside the server's cap on moves a game).

    `quick_engine`: the game's checks, moves and views are bounded and take
    microseconds (no search, no solver): a server may run them on its event loop,
    where handing them to a worker thread would cost more than the work (under
    Python's GIL the thread does not run beside the loop anyway). Leave it False
    (the safe default) for a game whose engine may think for long.

    `catalogue`: where a plugin keeps the translations of its own messages (its
    `N_`, `PluralWords` and move-log words), as "package:folder" holding one Babel
    `.po` file a language (`ko.po`); pyramids' own catalogue stays first, and a
    message no catalogue translates is shown in English.
    """

    name: str
    factory: Callable[..., Game]
    summary: str
    title: str = ""
    variants: tuple[dict[str, Any], ...] = field(default_factory=lambda: ({},))
    rules_page: Callable[[], str] | None = None
    learn_page: Callable[[str], str | None] | None = None
    tutorial: Callable[[], str | None] | None = None
    seat_order: Callable[[dict[str, Any]], Words | None] | None = None
    ranked_problem: Callable[[dict[str, Any]], Words | None] | None = None
    ranked_options: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    server_option_maximum: dict[str, int] = field(default_factory=dict)
    players_option: str | None = None
    order: int = 100
    view_type: type | None = None
    greedy_policy: str | None = None
    planner: str | None = None
    text_renderer: str | None = None
    text_notes: str | None = None
    terminal_board: str | None = None
    web_renderer: str | None = None
    observation_encoder: str | None = None
    move_log: str | None = None
    move_labels: str | None = None
    quick_engine: bool = False
    catalogue: str | None = None

    @property
    def display_title(self) -> str:
        return self.title or self.name

    def players_range(self) -> tuple[int, int]:
        """The fewest and the most seats the game is played with: the bounds of its
        `players_option`, or the default game's own number where it has none (Pacal
        is always two, Pacal solo one)."""
        game = self.factory()
        if self.players_option is None:
            return game.num_players, game.num_players
        spec = next(o for o in game.option_specs if o.name == self.players_option)
        low = int(spec.minimum) if spec.minimum is not None else game.num_players
        high = int(spec.maximum) if spec.maximum is not None else game.num_players
        return low, high

    def companion(self, kind: str) -> Any:
        """The companion `kind` imported (None when the manifest names none).

        A missing third-party module (Textual for a terminal board, say) raises
        `ModuleNotFoundError` as usual, so an interface can name the extra to
        install; a path that names nothing raises `CompanionError`.
        """
        if kind not in COMPANIONS or kind == "web_renderer":
            allowed = ", ".join(k for k in COMPANIONS if k != "web_renderer")
            raise CompanionError(f"unknown companion {kind!r}; allowed: {allowed}")
        path = getattr(self, kind)
        if path is None:
            return None
        module_name, _, attribute = path.partition(":")
        module = importlib.import_module(module_name)
        if not attribute:
            return module
        try:
            return getattr(module, attribute)
        except AttributeError:
            raise CompanionError(
                f"game {self.name!r}: {kind} {path!r} names nothing: module {module_name!r} "
                f"has no {attribute!r} ({COMPANIONS[kind]})"
            ) from None

    def web_renderer_source(self) -> str | None:
        """The browser renderer's JavaScript text (None when the game has none)."""
        if self.web_renderer is None:
            return None
        package, _, file_name = self.web_renderer.partition(":")
        try:
            return resources.files(package).joinpath(file_name).read_text(encoding="utf-8")
        except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError) as error:
            raise CompanionError(
                f"game {self.name!r}: web_renderer {self.web_renderer!r} cannot be read: {error}"
            ) from None


def _learn_file(package: str, name: str) -> str | None:
    """The text of `learn/<name>` shipped in `package` (None when it ships none)."""
    path = resources.files(package).joinpath("learn", name)
    return path.read_text(encoding="utf-8") if path.is_file() else None


def packaged_learn_pages(package: str, stem: str) -> Callable[[str], str | None]:
    """A `learn_page` for a package that ships `learn/<stem>.<lang>.md` files."""
    return lambda lang: _learn_file(package, f"{stem}.{lang}.md")


def packaged_rules_pages(package: str) -> Callable[[str], str | None]:
    """A `learn_page` for a package (a plugin) whose rules page is its learn page:
    `rules.md` in English beside its code, and `rules.<lang>.md` in each other
    language it is written in (`rules.ko.md`); None for a language it lacks, so
    that the reader gets the English page with a note saying so."""

    def page(lang: str) -> str | None:
        if not lang.replace("-", "").isalnum():  # a language code, never a path
            return None
        path = resources.files(package).joinpath(
            "rules.md" if lang == "en" else f"rules.{lang}.md")
        return path.read_text(encoding="utf-8") if path.is_file() else None

    return page


def packaged_tutorial(package: str, game: str) -> Callable[[], str | None]:
    """A `tutorial` for a package that ships `learn/<game>.tutorial.json`."""
    return lambda: _learn_file(package, f"{game}.tutorial.json")


#: The name older code and plugins use; the same class.
GameEntry = GameManifest

_REGISTRY: dict[str, GameManifest] = {}
_loaded = False


def register(manifest: GameManifest) -> None:
    """Add (or replace) a game. Built-in packages and tests call this on import."""
    _REGISTRY[manifest.name] = manifest


def _load_builtins() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for module in BUILTIN_MODULES:
        importlib.import_module(module)
    for entry_point in metadata.entry_points(group=ENTRY_POINT_GROUP):
        _load_plugin(entry_point)


def _load_plugin(entry_point: metadata.EntryPoint) -> None:
    where = f"plugin {entry_point.name!r} ({entry_point.value})"
    try:
        loaded = entry_point.load()
        if callable(loaded) and not isinstance(loaded, GameManifest):
            loaded = loaded()
        manifests = [loaded] if isinstance(loaded, GameManifest) else list(loaded)
    except Exception as error:  # a broken plugin is reported, never fatal
        warnings.warn(f"{where} could not be loaded: {error!r}", stacklevel=3)
        return
    for manifest in manifests:
        if not isinstance(manifest, GameManifest):
            warnings.warn(f"{where} gave {type(manifest).__name__}, not a GameManifest",
                          stacklevel=3)
        elif manifest.name in _REGISTRY:
            warnings.warn(f"{where}: the game name {manifest.name!r} is taken; skipped",
                          stacklevel=3)
        else:
            register(manifest)


def reload_plugins() -> None:
    """Read the `pyramids.games` entry points again (after installing a plugin)."""
    global _loaded
    _loaded = False
    _load_builtins()


def manifests() -> list[GameManifest]:
    """Every registered game, in the order players see them (`order`, then name)."""
    _load_builtins()
    return sorted(_REGISTRY.values(), key=lambda m: (m.order, m.name))


def catalogues() -> tuple[str, ...]:
    """The message catalogues the registered games ship (`GameManifest.catalogue`)."""
    _load_builtins()
    return tuple(m.catalogue for m in _REGISTRY.values() if m.catalogue)


def game_names() -> list[str]:
    _load_builtins()
    return sorted(_REGISTRY)


def game_manifest(name: str) -> GameManifest:
    _load_builtins()
    try:
        return _REGISTRY[name]
    except KeyError:
        allowed = ", ".join(sorted(_REGISTRY)) or "none"
        raise UnknownGameError(N_("unknown game {name}; allowed games: {allowed}"),
                               name=repr(name), allowed=allowed) from None


game_entry = game_manifest


def find_manifest(name: str) -> GameManifest | None:
    """The manifest of `name`, or None for a game made without the registry (tests, tools)."""
    _load_builtins()
    return _REGISTRY.get(name)


def companion_of(name: str, kind: str) -> Any:
    """A registered game's companion `kind` (None for an unregistered game or none named)."""
    manifest = find_manifest(name)
    return None if manifest is None else manifest.companion(kind)


def load(name: str, **options: Any) -> Game:
    """The game `name` with `options` validated (unknown names and values raise)."""
    return game_manifest(name).factory(**options)
