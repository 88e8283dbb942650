"""Named difficulty levels: `easy`, `medium`, `hard` and `expert`, resolved per game.

A level is an agent setting written like an arena entry (`"mcts:iterations=40"`).
Each game's greedy companion module (the manifest's `greedy_policy`) may name its
own settings in `DIFFICULTY`: a mapping from level to setting, or from the game's
name to such a mapping (one module serves several games, e.g. a match and its
solo mode). A level the module does not name falls back to `GENERIC`. Where one
game is played both alone and at a table, a level may name settings by the
fewest players each serves (`{1: "determinized", 2: "mcts:iterations=100"}`).

`make_agent("hard", seed=3)` does not know the game yet; the `LevelAgent` resolves
its setting on the first `step`, from `state.game.name` and the number of players,
and keeps one agent per game and number of players, seeded with its own seed.
docs/agents.md gives every game's ladder with measured Elo
(`python benchmarks/strength.py --ladder`).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from pyramids.agents.base import parse_setting
from pyramids.core import OptionError, State, companion_of, find_manifest
from pyramids.core.errors import N_

LEVELS = ("easy", "medium", "hard", "expert")

#: What each level is like to play against, for players choosing one (the lobby,
#: `pyramids bots`); catalogue messages. `easy` slips to plausible moves, `medium`
#: plays the greedy rule, `hard` answers within 50 ms, `expert` searches
#: (docs/agents.md gives each game's settings and figures). A game whose level
#: plays otherwise says so in its greedy module's `LEVEL_DESCRIPTIONS`, which
#: `level_description(level, game)` prefers.
LEVEL_DESCRIPTIONS: dict[str, str] = {
    "easy": N_("Often slips to a plausible weaker move: good for learning the game."),
    "medium": N_("Plays the game's rules of thumb, one move at a time."),
    "hard": N_("Plays strong moves and answers at once."),
    "expert": N_("The strongest: it searches ahead and may think a few seconds a move."),
}

#: Levels for a game whose greedy module names none: greedy with human-like
#: mistakes, greedy, and information-set MCTS at two iteration budgets.
GENERIC: dict[str, str] = {
    "easy": "greedy:mistakes=0.3",
    "medium": "greedy",
    "hard": "mcts:iterations=30",
    "expert": "mcts:iterations=400",
}


def level_settings(game_name: str, level: str) -> dict[int, str]:
    """The agent settings that play `level` in `game_name`, by the fewest players each
    serves, fewest first, counted from the fewest the game is played with (`{2:
    setting}` for Pacal, where one setting serves every table: never a table of one
    that the game has not)."""
    _check_level(level)
    fewest = fewest_players(game_name)
    entry = _game_table(game_name, "DIFFICULTY").get(level)
    if isinstance(entry, str):
        return {fewest: entry}
    if isinstance(entry, dict) and entry:
        settings: dict[int, str] = {}
        for players in sorted(entry, key=int):
            # A setting for tables smaller than the game's serves its smallest table,
            # unless a setting named for that table follows (it is the one played).
            settings[max(int(players), fewest)] = entry[players]
        return settings
    return {fewest: GENERIC[level]}


@cache
def fewest_players(game_name: str) -> int:
    """The fewest players `game_name` is played with (1 for a game made without the
    registry: tests, tools)."""
    manifest = find_manifest(game_name)
    return 1 if manifest is None else manifest.players_range()[0]


def level_setting(game_name: str, level: str, players: int = 1) -> str:
    """The agent setting that plays `level` in `game_name` with `players` players."""
    settings = level_settings(game_name, level)
    serving = [fewest for fewest in settings if fewest <= players]
    return settings[serving[-1] if serving else min(settings)]


def _game_table(game_name: str, attribute: str) -> dict[str, Any]:
    """The game's greedy module's table `attribute` (`DIFFICULTY`, `LEVEL_DESCRIPTIONS`):
    by level, or by game name and then by level; empty when it has none."""
    table = getattr(companion_of(game_name, "greedy_policy"), attribute, None) or {}
    if isinstance(table.get(game_name), dict):
        table = table[game_name]
    return dict(table)


def _check_level(level: str) -> None:
    if level not in LEVELS:
        raise OptionError(N_("unknown level {level}; allowed levels: {allowed}"),
                          level=repr(level), allowed=", ".join(LEVELS))


def level_description(level: str, game_name: str | None = None) -> str:
    """What playing against `level` is like, in `game_name` where given, as a
    catalogue message (translate it)."""
    _check_level(level)
    if game_name is not None:
        described = _game_table(game_name, "LEVEL_DESCRIPTIONS").get(level)
        if isinstance(described, str):
            return described
    return LEVEL_DESCRIPTIONS[level]


def level_table(game_name: str, players: int = 1) -> dict[str, str]:
    """Every level's setting for a game with `players` players, easiest first."""
    return {level: level_setting(game_name, level, players) for level in LEVELS}


class LevelAgent:
    """A named level: the game's own setting for it, made on the first move."""

    def __init__(self, level: str, seed: int | None = 0) -> None:
        _check_level(level)
        self.name = level
        self.seed = seed
        self._agents: dict[tuple[str, int], Any] = {}

    def agent_for(self, game_name: str, players: int = 1) -> Any:
        agent = self._agents.get((game_name, players))
        if agent is None:
            from pyramids.agents.base import make_agent

            name, options = parse_setting(level_setting(game_name, self.name, players))
            if name in LEVELS:
                # A game module's DIFFICULTY table is wrong: no player's input reaches this.
                raise ValueError(f"level {self.name!r} of {game_name} names another level")
            agent = make_agent(name, seed=self.seed, **options)
            self._agents[game_name, players] = agent
        return agent

    def reseed(self, seed: int | None) -> None:
        """Play on as a new level agent made with `seed`: the agents already made (one
        per game and table) are reseeded with it, as a new level would make them;
        one without `reseed` (a plugin's) is dropped, to be made afresh."""
        from pyramids.agents.base import reseed_agent

        self.seed = seed
        for key, agent in list(self._agents.items()):
            if not reseed_agent(agent, seed):
                del self._agents[key]

    def step(self, state: State) -> int:
        game = state.game
        action: int = self.agent_for(game.name, game.num_players).step(state)
        return action


def level_factory(level: str) -> Any:
    def make(seed: int | None = 0, **options: Any) -> LevelAgent:
        if options:
            raise OptionError(
                N_("level {level} takes no options (it is a fixed setting); got {options}"),
                level=repr(level), options=", ".join(sorted(options)),
            )
        return LevelAgent(level, seed=seed)

    return make
