"""Temple of Inscriptions moves in words (the `move_log` companion).

Told from one audience's views before and after the move (rules.md):
- a swap names the card given and the card taken (the swap zone is face up);
- a summon names the level and whether the summoner paid 1 treasure point;
- a set names the cards and jewel pairs set (a unit is a card or a pair);
- a success names the level built and who earned what; every card of that
  level left in a hand is discarded, which the reader learns for their own hand;
- a failure says the cards set go back to their owners;
- a new round's draw: the reader learns the cards they drew, and of every
  other seat only how many it drew (hand sizes are public).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from pyramids.play.movelog import Listing, Words, listing, say, say_n, seat_title, seat_words


def card_words(kind: str, count: int = 1) -> Words:
    """`2 level-3 cards`, `1 jewel` (kinds are `L1`..`L9` and `J`)."""
    if kind == "J":
        return say_n("{count} jewel", "{count} jewels", count)
    return say_n(
        "{count} level-{level} card", "{count} level-{level} cards", count, level=int(kind[1:])
    )


def cards_words(counts: dict[str, int]) -> Words | Listing:
    """Several kinds with their counts, or `no cards`."""
    present = [
        (kind, count) for kind, count in sorted(counts.items(), key=_kind_order) if count > 0
    ]
    if not present:
        return say("no cards")
    return listing(card_words(kind, count) for kind, count in present)


def _kind_order(item: tuple[str, int]) -> tuple[int, int]:
    kind = item[0]
    return (1, 0) if kind == "J" else (0, int(kind[1:]))


def _set_by(construction: dict[str, Any] | None, seat: int) -> Counter[str]:
    """The cards `seat` has set into the construction so far."""
    taken: Counter[str] = Counter()
    if not construction:
        return taken
    for entry in construction["sets"]:
        if entry["player"] == seat:
            taken[f"L{construction['level']}"] += entry["cards"]
            taken["J"] += 2 * entry["jewel_pairs"]
    return taken


def _move_lines(
    action: str, actor: int, viewer: int | None, before: dict[str, Any], after: dict[str, Any]
) -> list[Words]:
    who = seat_title(actor, viewer)
    words = action.split()
    if words == ["swap", "pass"]:
        return [say("{seat} kept the hand and took nothing from the swap zone.", seat=who)]
    if words[0] == "swap":
        slot = int(words[2])
        taken = before["swap_zone"][slot - 1]
        return [
            say(
                "{seat} gave {given} and took {taken} from the swap zone.",
                seat=who,
                given=card_words(words[1].upper()),
                taken=card_words(taken),
            )
        ]
    if words == ["summon"]:
        construction = after.get("construction")
        level = before["level"]
        if construction is not None and not construction["paid"]:
            return [
                say(
                    "{seat} summoned the construction of level {level}, for free "
                    "(no treasure to pay with).",
                    seat=who,
                    level=level,
                )
            ]
        return [
            say(
                "{seat} summoned the construction of level {level} and paid 1 treasure point.",
                seat=who,
                level=level,
            )
        ]
    if words == ["pass"]:
        return [say("{seat} passed.", seat=who)]
    if words[0] == "set":
        cards, pairs = int(words[1]), int(words[2])
        if cards == pairs == 0:
            return [say("{seat} set nothing.", seat=who)]
        level = before["level"]
        card_text = card_words(f"L{level}", cards)
        pair_text = say_n("{count} jewel pair", "{count} jewel pairs", pairs)
        # A count of nothing is left out ("and 0 jewel pairs" read oddly).
        if pairs == 0:
            return [say("{seat} set {cards} into level {level}.", seat=who, cards=card_text,
                        level=level)]
        if cards == 0:
            return [say("{seat} set {pairs} into level {level}.", seat=who, pairs=pair_text,
                        level=level)]
        return [say("{seat} set {cards} and {pairs} into level {level}.", seat=who,
                    cards=card_text, pairs=pair_text, level=level)]
    return [say("{seat}: {action}", seat=who, action=action)]


def _construction_lines(
    action: str, actor: int, viewer: int | None, before: dict[str, Any], after: dict[str, Any]
) -> list[Words]:
    lines: list[Words] = []
    if after["built"] > before["built"]:
        level = after["built"]
        lines.append(say("Level {level} is built.", level=level))
        for seat, (old, new) in enumerate(zip(before["treasure"], after["treasure"], strict=True)):
            if new > old:
                lines.append(
                    say_n(
                        "{seat} earned {count} treasure point.",
                        "{seat} earned {count} treasure points.",
                        new - old,
                        seat=seat_title(seat, viewer),
                    )
                )
        if viewer is not None:
            kind = f"L{level}"
            held = before.get("hand", {}).get(kind, 0)
            if actor == viewer and action.split()[0] == "set":
                held -= int(action.split()[1])
            if held > 0:
                lines.append(
                    say(
                        "You discarded {cards} from your hand: level {level} is built.",
                        cards=card_words(kind, held),
                        level=level,
                    )
                )
    elif before.get("construction") and not after.get("construction"):
        lines.append(
            say(
                "The construction of level {level} failed: every card set goes back to its owner.",
                level=before["construction"]["level"],
            )
        )
    return lines


def _round_lines(viewer: int | None, before: dict[str, Any], after: dict[str, Any]) -> list[Words]:
    if after["round"] <= before["round"] or after["phase"] == "over":
        return []
    failed = before.get("construction") if after["built"] == before["built"] else None
    lines = [
        say(
            "Round {round} begins; first to play: {seat}.",
            round=after["round"],
            seat=seat_words(after["start_player"], viewer),
        )
    ]
    for seat in range(after["players"]):
        returned = _set_by(failed, seat)
        if seat == viewer:
            drawn = Counter(after.get("hand", {}))
            drawn.subtract(before.get("hand", {}))
            drawn.subtract(returned)
            gained = {kind: count for kind, count in drawn.items() if count > 0}
            if gained:
                lines.append(say("You drew {cards}.", cards=cards_words(gained)))
            continue
        count = after["hand_sizes"][seat] - before["hand_sizes"][seat] - sum(returned.values())
        if count > 0:
            lines.append(
                say_n(
                    "{seat} drew {count} card.",
                    "{seat} drew {count} cards.",
                    count,
                    seat=seat_title(seat, viewer),
                )
            )
    return lines


def _end_lines(viewer: int | None, before: dict[str, Any], after: dict[str, Any]) -> list[Words]:
    if after["phase"] != "over" or before["phase"] == "over":
        return []
    scores = after.get("scores") or []
    lines = [
        say(
            "The game is over. Final scores (treasure, and 1 point a jewel card left in "
            "hand): {scores}.",
            scores=listing(
                say("{seat} {points}", seat=seat_words(seat, viewer), points=points)
                for seat, points in enumerate(scores)
            ),
        )
    ]
    winners = after.get("winners") or []
    if winners:
        lines.append(
            say("Won by {seats}.", seats=listing(seat_words(seat, viewer) for seat in winners))
        )
    return lines


def describe_temple(
    action: str, actor: int, viewer: int | None, before: dict[str, Any], after: dict[str, Any]
) -> list[Words]:
    """The lines one audience reads about one move (see the module docstring)."""
    return [
        *_move_lines(action, actor, viewer, before, after),
        *_construction_lines(action, actor, viewer, before, after),
        *_round_lines(viewer, before, after),
        *_end_lines(viewer, before, after),
    ]
