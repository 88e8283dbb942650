"""Hand-built Temple positions for rules tests."""

from __future__ import annotations

from typing import Any

from pyramids.core import load
from pyramids.games.temple.cards import KIND_NAMES, counts_to_dict, new_deck, parse_kind
from pyramids.games.temple.state import TempleState


def position(
    players: int = 3,
    *,
    hands: list[dict[str, int]],
    zone: list[str | None] | None = None,
    pile_top: tuple[str, ...] | list[str] = (),
    discard: dict[str, int] | None = None,
    removed: dict[str, int] | None = None,
    rest: str = "pile",
    built: int = 0,
    treasure: list[int] | None = None,
    phase: str = "summon",
    current: int = 0,
    start_player: int = 0,
    round: int = 1,
    acted: int = 0,
    **options: Any,
) -> TempleState:
    """A state with these hands, swap zone and pile top (the first card drawn first).

    The cards of the deck not placed go to the bottom of the pile (`rest="pile"`),
    the discard pile (`rest="discard"`) or out of the game (`rest="removed"`), so
    that the position holds every card exactly once.
    """
    game = load("temple", players=players, **options)
    zone = zone if zone is not None else [None] * game.options["swap_size"]
    left = {name: 0 for name in KIND_NAMES}
    for kind in new_deck(game.options["cards_per_level"], game.options["jewels"]):
        left[KIND_NAMES[kind]] += 1
    placed: list[dict[str, int]] = [*hands, discard or {}, removed or {}]
    placed.append({name: pile_top.count(name) for name in set(pile_top)})
    placed.append({name: zone.count(name) for name in set(zone) if name is not None})
    for counts in placed:
        for name, n in counts.items():
            left[name] -= n
            assert left[name] >= 0, f"more {name} cards placed than the deck holds"
    leftover = [name for name, n in left.items() for _ in range(n)]
    discard = dict(discard or {})
    removed = dict(removed or {})
    pile = list(reversed(pile_top))
    if rest == "pile":
        pile = leftover + pile
    else:
        target = discard if rest == "discard" else removed
        for name in leftover:
            target[name] = target.get(name, 0) + 1
    data = {
        "seed": 0,
        "rng": 12345,
        "pile": pile,
        "discard": discard,
        "removed": removed,
        "built": built,
        "zone": zone,
        "hands": hands,
        "known": [{} for _ in hands],
        "treasure": treasure if treasure is not None else [3] * players,
        "round": round,
        "start_player": start_player,
        "phase": phase,
        "current": current,
        "acted": acted,
        "construction": None,
        "actions": [],
    }
    return TempleState.from_dict(game, data)


def counts(state: TempleState, player: int) -> dict[str, int]:
    return counts_to_dict(state.hands[player])


def kind(name: str) -> int:
    found = parse_kind(name)
    assert found is not None
    return found
