"""`check_game`: the conformance suite, as a function a game's author runs.

    >>> from pyramids.testing import check_game
    >>> report = check_game("pacal", games=20)

It plays random games of every variant the game's manifest lists (or of the one
`Game` given) and checks the API contract that every interface relies on:

- legal actions are sorted, unique, in range, and empty exactly at the end;
  `current_player` is a seat until the end and `TERMINAL` after;
- an illegal action (and an unknown action string) raises `IllegalActionError`
  and leaves the state exactly as it was;
- `to_json` round-trips, and play goes on from the restored copy, so anything
  the save forgot (the chance generator, a counter) shows up later in the game;
- action strings parse back to their actions;
- every view is JSON-able, matches the manifest's `view_type` (no list past its
  declared `Capacity`), and carries the standard `outcome` block (None while
  playing; winners, scores and reason at the end, with winners agreeing with
  `returns()`);
- `resample_hidden(p)` keeps what seat `p` sees, and the current player's legal
  actions; playing on a clone leaves the original alone;
- no view follows another seat's own hidden field, found without trusting
  `resample_hidden` (which may merely copy): one seat's entry of each list the
  save keeps by seat (`hands`...) is replaced by another deal's, and where that
  seat's view changes in a field only it sees (its `hand`), no other seat's view
  and not the spectator's may show the same values moving with it;
- the same seed and actions give the same game, different seeds deal
  differently, and a game record replays exactly;
- a malformed saved state raises `RecordError`;
- the restored copy shows every seat what the original shows (a field that
  `_to_dict` forgets is named); a legal action that `apply_action` refuses or
  fails on is named with its error;
- a game with chance (its `resample_hidden` finds other states) deals
  differently for different seeds: a deal that ignores its seed is caught.

In one-player games a uniformly random player tends to stop or pass early and
never sees late positions, so in the first `steered_games` games of a variant
it follows the game's greedy policy (its manifest's `greedy_policy`) for a
share `steer` of its moves.

A failed check raises `ConformanceError` (an `AssertionError`) that says which
game, variant, deal and step, so the failure replays.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from pyramids.core import (
    TERMINAL,
    Game,
    GameManifest,
    GameRecord,
    IllegalActionError,
    RecordError,
    Rng,
    State,
    find_manifest,
    game_manifest,
)
from pyramids.core.api import IDENTICAL, ZERO_SUM
from pyramids.core.views import ViewTypeError, check_outcome, check_view

MAX_STEPS = 100_000
UNKNOWN_ACTION_TEXTS = ("", "fly away", "\U0001f642", "9999999")


class ConformanceError(AssertionError):
    """A game broke the API contract; the message says where."""


@dataclass
class VariantReport:
    """What one variant's games showed."""

    options: dict[str, Any]
    games: int = 0
    checked_steps: int = 0
    lengths: list[int] = field(default_factory=list)

    @property
    def mean_length(self) -> float:
        return sum(self.lengths) / len(self.lengths) if self.lengths else 0.0


@dataclass
class ConformanceReport:
    game: str
    variants: list[VariantReport]

    def summary(self) -> str:
        parts = [
            f"{json.dumps(v.options, sort_keys=True)}: {v.games} games, "
            f"{v.checked_steps} steps checked, mean length {v.mean_length:.1f}"
            for v in self.variants
        ]
        return f"{self.game}: " + "; ".join(parts)


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise ConformanceError(message)


def _difference(first: Any, second: Any, path: str = "") -> str | None:
    """Where two JSON-able values first differ, in words: `['hand']: [1, 2] against [3]`
    (None where they are equal), so a failed comparison of views names the field."""
    if isinstance(first, dict) and isinstance(second, dict):
        for key in list(first) + [k for k in second if k not in first]:
            if key not in second:
                return f"{path}[{key!r}] is missing from the second"
            if key not in first:
                return f"{path}[{key!r}] is missing from the first"
            found = _difference(first[key], second[key], f"{path}[{key!r}]")
            if found:
                return found
        return None
    if isinstance(first, list) and isinstance(second, list) and len(first) == len(second):
        for index, (a, b) in enumerate(zip(first, second, strict=True)):
            found = _difference(a, b, f"{path}[{index}]")
            if found:
                return found
        return None
    if first != second:
        return f"{path or 'the value'}: {first!r} against {second!r}"
    return None


def _to_json(state: State, what: str = "to_json") -> str:
    """`state.to_json()`, with a save that is not JSON-able reported as such."""
    try:
        return state.to_json()
    except (TypeError, ValueError) as error:
        raise ConformanceError(f"{what} failed: _to_dict() must return JSON-able data "
                               f"(lists, dicts, strings, numbers): {error}") from None


def _steering_policy(game: Game, steer: float) -> Callable[[State, random.Random], int] | None:
    if game.num_players != 1 or steer <= 0:
        return None
    from pyramids.agents.greedy import policy_for

    policy = policy_for(game.name)
    if policy is None:
        return None
    greedy_rng = Rng(0)

    def steered(state: State, rng: random.Random) -> int:
        if rng.random() < steer:
            return policy(state, greedy_rng)
        return rng.choice(state.legal_actions())

    return steered


def check_step(state: State, rng: random.Random, deep: bool,
               view_type: type | None = None) -> State:
    """Check the API contract at `state`; return its JSON round-tripped copy."""
    game = state.game
    legal = state.legal_actions()
    _require(bool(legal), "legal actions must not be empty before the end")
    _require(legal == sorted(set(legal)), "legal actions must be sorted and unique")
    _require(all(0 <= a < game.num_distinct_actions for a in legal),
             f"legal actions must lie in 0..{game.num_distinct_actions - 1}")
    _require(0 <= state.current_player < game.num_players,
             f"current_player {state.current_player} is not a seat before the end")
    before = _to_json(state)
    try:
        restored = game.state_from_json(before)
    except RecordError as error:
        raise ConformanceError(f"the state's own save does not load ({error}): "
                               "_state_from_dict must read back what _to_dict writes") from None
    again = _to_json(restored)
    if again != before:
        changed = _difference(json.loads(before), json.loads(again))
        raise ConformanceError(f"to_json did not round-trip ({changed}, saved and saved "
                               "again after loading): _state_from_dict must rebuild "
                               "exactly what _to_dict saved")
    _require(restored.legal_actions() == legal, "the restored state has other legal actions")
    _require(restored.history() == state.history(), "the restored state has another history")
    _require(restored.current_player == state.current_player,
             f"the restored state has another player to move (seat "
             f"{state.current_player + 1} before saving, seat {restored.current_player + 1} "
             "after loading): _to_dict or _state_from_dict forgets part of the state")
    legal_set = set(legal)
    candidates = [-1, game.num_distinct_actions]
    candidates += [a for a in rng.sample(range(game.num_distinct_actions),
                                         min(8, game.num_distinct_actions))
                   if a not in legal_set]
    for action in candidates[: 1 if not deep else len(candidates)]:
        try:
            state.apply_action(action)
        except IllegalActionError:
            pass
        else:
            raise ConformanceError(f"illegal action {action} was accepted")
        _require(state.to_json() == before, f"illegal action {action} changed the state")
    if deep:
        for action in legal:
            _require(state.string_to_action(state.action_to_string(action)) == action,
                     f"action {action} does not parse back from its string")
        for player in [None, *range(game.num_players)]:
            view = _checked_view(state, player, view_type)
            _require(view.get("outcome") is None, "the outcome must be None while playing")
            lost = _difference(view, restored.view(player))
            _require(lost is None,
                     f"{_viewer(player)} sees something else after saving and loading "
                     f"(view{lost}, before and after): _to_dict or _state_from_dict "
                     "forgets part of the state")
            if player is not None:
                sampled = state.resample_hidden(player, Rng(rng.randrange(1 << 30)))
                changed = _difference(view, sampled.view(player))
                _require(changed is None,
                         f"resample_hidden({player}) changed what seat {player + 1} sees "
                         f"(view({player}){changed}, before and after): either view({player}) "
                         "shows seat " f"{player + 1} something hidden from it (a leak of "
                         "another seat's cards or the deck), or resample_hidden redraws "
                         "something seat " f"{player + 1} may see")
                _require(sampled.current_player == state.current_player,
                         "resample_hidden changed the player to move")
                if player == state.current_player:
                    # Another seat's legal actions depend on its hidden cards.
                    _require(sampled.legal_actions() == legal,
                             "resample_hidden changed the mover's legal actions")
        if game.num_players > 1:
            # A generator of its own, from the position: the random player's moves, and
            # so the deals a failure names, stay what they were without this check.
            _check_hidden_by_save(state, json.loads(before),
                                  random.Random(hash(tuple(state.history()))))
        clone = state.clone()
        clone.apply_action(legal[0])
        _require(state.to_json() == before, "playing on a clone changed the original")
    return restored


def _paths(value: Any, path: str = "") -> Iterable[tuple[str, Any]]:
    """Every (path, sub-value) of a JSON-able value, the value itself first."""
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, f"{path}[{key!r}]")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, f"{path}[{index}]")


def _seat_entries(saved: Any, seats: int) -> list[tuple[tuple[Any, ...], str]]:
    """The lists of the save with one entry a seat (`hands`, `scores`...): where a
    seat's own cards are usually kept. Each as its key path and its path in words."""
    found: list[tuple[tuple[Any, ...], str]] = []

    def walk(value: Any, keys: tuple[Any, ...], words: str) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                walk(item, (*keys, key), f"{words}[{key!r}]")
        elif isinstance(value, list):
            if len(value) == seats:
                found.append((keys, words))
                return  # a hand of as many cards as seats is not a list by seat
            for index, item in enumerate(value):
                if isinstance(item, dict | list):
                    walk(item, (*keys, index), f"{words}[{index}]")

    walk(saved, (), "")
    return found


def _private(view: dict[str, Any], public: dict[str, Any]) -> dict[str, Any]:
    """What a seat's view shows that the spectator's does not (its own hand...)."""
    return {key: value for key, value in view.items()
            if key != "outcome" and not isinstance(value, bool) and value is not None
            and (key not in public or public[key] != value)}


def _check_hidden_by_save(state: State, saved: dict[str, Any], rng: random.Random) -> None:
    """A leak found without trusting the game's `resample_hidden`: one seat's entry of
    the save (its hand, say) is replaced by that seat's entry in another deal, and the
    views are read again. Where a seat's own view shows the change in a field only it
    sees (its `hand`), no other view may show the same values moving with it: that
    other view carries the seat's hidden cards."""
    game = state.game
    seats = list(range(game.num_players))
    audience: list[int | None] = [None, *seats]
    views = {viewer: state.view(viewer) for viewer in audience}
    private = {seat: _private(views[seat], views[None]) for seat in seats}
    donor = json.loads(_to_json(game.new_initial_state(rng.randrange(1 << 30))))["state"]
    for keys, words in _seat_entries(saved["state"], game.num_players)[:8]:
        theirs: Any = donor
        try:
            for key in keys:
                theirs = theirs[key]
        except (KeyError, IndexError, TypeError):
            continue
        if not isinstance(theirs, list) or len(theirs) != game.num_players:
            continue
        for owner in [rng.choice(seats)]:  # one seat a step: loading is not cheap
            changed = _with_entry(saved, keys, owner, theirs[owner])
            if changed is None:
                continue
            try:
                other = game.state_from_json(json.dumps(changed))
                after = {viewer: other.view(viewer) for viewer in (owner, None)}
                mine = _private(after[owner], after[None])
                moved = {key: (private[owner][key], value) for key, value in mine.items()
                         if key in private[owner] and private[owner][key] != value}
                if moved:  # the other views only where the seat sees its entry change
                    after.update({seat: other.view(seat) for seat in seats if seat != owner})
            except Exception:  # noqa: BLE001 - a mix the game refuses tells nothing
                continue
            for key, (old, new) in moved.items():
                for viewer in [*seats, None]:
                    if viewer == owner:
                        continue
                    leak = _moved_with(views[viewer], after[viewer], old, new)
                    if leak is not None:
                        raise ConformanceError(
                            f"{_viewer(viewer)} shows what only seat {owner + 1} sees: "
                            f"view({viewer}){leak} follows view({owner})[{key!r}], "
                            f"{old!r} then {new!r} when only seat {owner + 1}'s entry of "
                            f"the save's {words} was changed; a view must not carry "
                            "another seat's hidden cards (found by changing the save, "
                            "without resample_hidden)")


def _with_entry(saved: dict[str, Any], keys: tuple[Any, ...], owner: int,
                entry: Any) -> dict[str, Any] | None:
    """A copy of the save with `owner`'s entry at `keys` replaced; None if it is the same."""
    changed = json.loads(json.dumps(saved))
    holder: Any = changed["state"]
    for key in keys:
        holder = holder[key]
    current = holder[owner]
    if current == entry or type(current) is not type(entry) or (
            isinstance(entry, list) and len(entry) != len(current)):
        return None
    holder[owner] = entry
    return changed


def _moved_with(before: dict[str, Any], after: dict[str, Any], old: Any,
                new: Any) -> str | None:
    """A path at which `before` held `old` and `after` holds `new` (None if none)."""
    was = dict(_paths(before))
    for path, value in _paths(after):
        if path and value == new and path in was and was[path] == old \
                and type(value) is type(new):
            return path
    return None


def _viewer(player: int | None) -> str:
    return "a spectator (view(None))" if player is None else \
        f"seat {player + 1} (view({player}))"


def _checked_view(state: State, player: int | None, view_type: type | None) -> dict[str, Any]:
    view = state.view(player)
    try:
        json.dumps(view)
    except (TypeError, ValueError) as error:
        raise ConformanceError(f"view({player}) is not JSON-able: {error}") from None
    _require("outcome" in view, f"view({player}) has no 'outcome' block")
    if view_type is not None:
        try:
            check_view(view, view_type, state.game)
        except ViewTypeError as error:
            raise ConformanceError(f"view({player}) does not match "
                                   f"{view_type.__name__}: {error}") from None
    return view


def _check_end(state: State, view_type: type | None) -> None:
    game = state.game
    _require(state.legal_actions() == [], "a finished game must have no legal actions")
    _require(state.current_player == TERMINAL, "current_player must be TERMINAL at the end")
    returns = state.returns()
    _require(len(returns) == game.num_players, "returns() needs one number per seat")
    _require(all(isinstance(r, int | float) for r in returns), "returns() must be numbers")
    kind = game.returns_kind()
    if kind == ZERO_SUM:
        _require(abs(sum(returns)) <= 1e-9,
                 f"returns {returns} do not sum to 0, but returns_kind() says zero-sum")
    elif kind == IDENTICAL:
        _require(len(set(returns)) == 1,
                 f"returns {returns} differ between seats, but returns_kind() says identical")
    for player in [None, *range(game.num_players)]:
        view = _checked_view(state, player, view_type)
        try:
            check_outcome(view["outcome"], game.num_players, game)
        except ViewTypeError as error:
            raise ConformanceError(f"outcome at the end: {error}") from None
        winners = view["outcome"]["winners"]
        if game.num_players > 1:
            best = max(returns)
            expected = [s for s, r in enumerate(returns) if r == best]
            if len(expected) < game.num_players:
                _require(winners == expected,
                         f"outcome winners {winners} disagree with returns {returns}")


def play_random(game: Game, seed: int, agent_seed: int, check: bool = True,
                deep_every: int = 7, steer: float = 0.9) -> tuple[State, int]:
    """One game by a (steered) random player; the final state and the steps checked."""
    view_type = _view_type(game)
    state = game.new_initial_state(seed)
    rng = random.Random(agent_seed)
    policy = _steering_policy(game, steer)
    steps = 0
    checked = 0
    while not state.is_terminal():
        if check:
            state = check_step(state, rng, deep=steps % deep_every == 0, view_type=view_type)
            checked += 1
        else:
            _require(bool(state.legal_actions()), "legal actions must not be empty before the end")
        action = policy(state, rng) if policy else rng.choice(state.legal_actions())
        _apply_legal(state, action, steps)
        steps += 1
        _require(steps < MAX_STEPS, f"the game did not end within {MAX_STEPS} actions")
    _check_end(state, view_type if check else None)
    return state, checked


def _apply_legal(state: State, action: int, move: int) -> None:
    """Play an action `legal_actions()` listed; one the game refuses or fails on is a
    broken contract, named with its move string and the error."""
    try:
        text = repr(state.action_to_string(action))
    except Exception:  # noqa: BLE001 - the name is only for the message
        text = "(no action string)"
    try:
        state.apply_action(action)
    except Exception as error:  # noqa: BLE001 - any failure of a listed action is reported
        raise ConformanceError(
            f"move {move + 1}: legal_actions() lists action {action} {text}, but "
            f"apply_action failed on it ({type(error).__name__}: {error}); legal_actions() "
            "must list exactly the moves apply_action accepts") from None


def _view_type(game: Game) -> type | None:
    manifest = find_manifest(game.name)
    return None if manifest is None else manifest.view_type


def check_variant(game: Game, games: int = 200, checked: int = 50, seed: int = 0,
                  steer: float = 0.9, steered_games: int = 10) -> VariantReport:
    """Play `games` games of `game` (the first `checked` checked at every step).

    In a one-player game the first `steered_games` follow the greedy policy for a
    share `steer` of their moves (late positions); the rest play at random, which
    is cheap and reaches the early positions' variety.
    """
    report = VariantReport(options=game.options)
    where = f"{game.name} {json.dumps(game.options, sort_keys=True)}"
    try:
        _check_deal_repeats(game, seed)
    except ConformanceError as error:
        raise ConformanceError(f"{where}: {error}") from None
    for index in range(games):
        deal = seed + index
        try:
            final, steps = play_random(game, seed=deal, agent_seed=10_000 + deal,
                                       check=index < checked,
                                       deep_every=7 if index < 50 else 23,
                                       steer=steer if index < steered_games else 0.0)
            if index < min(50, checked):
                _check_record(game, final)
        except ConformanceError as error:
            raise ConformanceError(f"{where}, deal {deal}: {error}") from None
        report.games += 1
        report.checked_steps += steps
        report.lengths.append(len(final.history()))
    try:
        _check_seeds(game, steer)
        _check_malformed_saves(game)
        _check_unknown_strings(game)
    except ConformanceError as error:
        raise ConformanceError(f"{where}: {error}") from None
    return report


def _check_deal_repeats(game: Game, seed: int) -> None:
    """The same seed deals the same game, before any game is played on it."""
    first = _to_json(game.new_initial_state(seed), "to_json of a new deal")
    again = _to_json(game.new_initial_state(seed))
    if first != again:
        changed = _difference(json.loads(first), json.loads(again))
        raise ConformanceError(
            f"new_initial_state({seed}) dealt two different games ({changed}): every "
            "random choice must come from the seed (a pyramids.core.Rng made from it "
            "and kept in the state), never from the random module or the clock")


def _check_record(game: Game, final: State) -> None:
    """The game record's seed and action strings replay the game exactly."""
    try:
        record = GameRecord.from_json(
            GameRecord.from_state(final, players=["random"] * game.num_players).to_json())
    except IllegalActionError as error:
        raise ConformanceError(
            "the moves played do not replay from a new deal of the same seed "
            f"({error}): the deal must come from the seed alone, and the game played on "
            "from saved and loaded copies, so _to_dict or _state_from_dict may lose part "
            "of the state") from None
    replay = game.new_initial_state(record.seed)
    for move, text in enumerate(record.actions):
        try:
            replay.apply_string(text)
        except IllegalActionError as error:
            raise ConformanceError(f"the game record did not replay: move {move + 1} "
                                   f"{text!r} was refused ({error})") from None
    _require(replay.to_json() == final.to_json(), "the game record did not replay exactly")


def _check_seeds(game: Game, steer: float) -> None:
    first, _ = play_random(game, seed=42, agent_seed=7, check=False, steer=steer)
    second, _ = play_random(game, seed=42, agent_seed=7, check=False, steer=steer)
    _require(first.to_json() == second.to_json(), "the same seed and moves gave another game")
    # The saved seed itself differs between deals; compare what was dealt without it.
    seeds = [DISTINCT_SEED + seed for seed in range(20)]
    made = [game.new_initial_state(seed) for seed in seeds]
    starts = {json.dumps(_without(json.loads(_to_json(state))["state"], seed), sort_keys=True)
              for seed, state in zip(seeds, made, strict=True)}
    if len(starts) == 1 and _has_chance(made[0]):
        raise ConformanceError(
            f"new_initial_state gave the same deal for {len(seeds)} different seeds, yet "
            "the game has chance (resample_hidden finds other states): the deal must be "
            "drawn from the seed (pyramids.core.Rng(seed))")


#: Seeds for the check that different seeds deal differently: numbers no field of a
#: deal is likely to hold, so the saved seed can be told from what was dealt.
DISTINCT_SEED = 7_919_000_003


def _without(value: Any, seed: int) -> Any:
    """`value` with every occurrence of `seed` (the saved seed) taken out."""
    if isinstance(value, dict):
        return {k: _without(v, seed) for k, v in value.items() if v != seed}
    if isinstance(value, list):
        return [_without(v, seed) for v in value if v != seed]
    return value


def _has_chance(state: State) -> bool:
    """Whether the game hides or draws anything: some seat's `resample_hidden` gives
    another state than the position itself."""
    saved = state.to_json()
    players = [None, *range(state.game.num_players)]
    return any(state.resample_hidden(player, Rng(n)).to_json() != saved
               for player in players for n in range(3))


def _check_malformed_saves(game: Game) -> None:
    state = game.new_initial_state(3)
    for bad in ["", "{", "[]", json.dumps({"format": "pyramids-state", "game": "nope"}),
                state.to_json().replace('"state":', '"stat":')]:
        try:
            game.state_from_json(bad)
        except RecordError:
            continue
        raise ConformanceError(f"the malformed save {bad[:40]!r} was accepted")


def _check_unknown_strings(game: Game) -> None:
    state = game.new_initial_state(5)
    before = state.to_json()
    for text in UNKNOWN_ACTION_TEXTS:
        try:
            state.apply_action(state.string_to_action(text))
        except IllegalActionError:
            continue
        raise ConformanceError(f"the action string {text!r} was accepted")
    _require(state.to_json() == before, "an unknown action string changed the state")


def check_game(game: str | GameManifest | Game, games: int = 200, checked: int = 50,
               seed: int = 0, steer: float = 0.9, steered_games: int = 10,
               variants: Iterable[dict[str, Any]] | None = None) -> ConformanceReport:
    """Check every variant of `game` (a name, a manifest, or one `Game`).

    `games` random games per variant, the first `checked` checked at every step;
    deal `seed + i` for game `i`, so a failure names the deal that replays it.
    """
    if isinstance(game, Game):
        made = [game]
        name = game.name
    else:
        manifest = game if isinstance(game, GameManifest) else game_manifest(game)
        name = manifest.name
        made = [manifest.factory(**options) for options in (variants or manifest.variants)]
    reports = [check_variant(g, games=games, checked=checked, seed=seed, steer=steer,
                             steered_games=steered_games)
               for g in made]
    return ConformanceReport(game=name, variants=reports)


__all__ = [
    "ConformanceError",
    "ConformanceReport",
    "VariantReport",
    "check_game",
    "check_step",
    "check_variant",
    "play_random",
]
