"""Pacal and Pacal solo moves in words (the `move_log` companions).

Told from one audience's views before and after the move (rules.md): offers
and picks are public (the action strings name the cards), a placed card lies
face up on its field, and a declined last card stays hidden, so only its owner
reads which card it was. When a round ends, why (from `last_round`), who won it
and the match score follow; a new round names its starting player.
"""

from __future__ import annotations

from typing import Any

from pyramids.play.movelog import Words, say, seat_title, seat_words


def _round_over(before: dict[str, Any], after: dict[str, Any]) -> bool:
    return after["round"] > before["round"] or (
        after["phase"] == "over" and before["phase"] != "over"
    )


def _placed_card(
    actor: int, field: int, before: dict[str, Any], after: dict[str, Any]
) -> int | None:
    """The card now on top of `field`: the finished round's pyramid when the move ended it."""
    pyramids = after["pyramids"]
    if _round_over(before, after) and after.get("last_round"):
        pyramids = after["last_round"]["pyramids"]
    cards = pyramids[actor][field - 1]
    return cards[-1] if cards else None


def _move_lines(
    action: str, actor: int, viewer: int | None, before: dict[str, Any], after: dict[str, Any]
) -> list[Words]:
    who = seat_title(actor, viewer)
    words = action.split()
    if words[0] == "offer":
        return [
            say(
                "{seat} offered {first} and {second}.",
                seat=who,
                first=int(words[1]),
                second=int(words[2]),
            )
        ]
    if words[0] == "pick":
        value = int(words[1])
        offer = before.get("offer") or []
        rest = [card for card in offer if card != value]
        if rest:
            return [
                say(
                    "{seat} picked {card}; {other} goes back to {offerer}.",
                    seat=who,
                    card=value,
                    other=rest[0],
                    offerer=seat_words(1 - actor, viewer),
                )
            ]
        return [say("{seat} picked {card}.", seat=who, card=value)]
    if words[0] == "place":
        field = int(words[1].lstrip("Ff"))
        card = _placed_card(actor, field, before, after)
        covered = before["pyramids"][actor][field - 1]
        if card is None:
            return [say("{seat} placed a card on F{field}.", seat=who, field=field)]
        if covered:
            return [
                say(
                    "{seat} placed {card} on F{field}, covering {covered}.",
                    seat=who,
                    card=card,
                    field=field,
                    covered=covered[-1],
                )
            ]
        return [say("{seat} placed {card} on F{field}.", seat=who, card=card, field=field)]
    if words == ["decline"]:
        own = before.get("card_to_place")
        if own is None and before.get("hand"):
            own = before["hand"][0]
        if actor == viewer and own is not None:
            return [say("You kept your last card, {card}, out of the pyramid.", card=own)]
        return [say("{seat} kept the last card out of the pyramid.", seat=who)]
    return [say("{seat}: {action}", seat=who, action=action)]


def _reason(viewer: int | None, result: dict[str, Any], before: dict[str, Any]) -> Words:
    winner = result["winner"]
    occupied, spreads = result["occupied"], result["spreads"]
    complete = [count == len(before["layout"]) for count in occupied]
    if all(complete):
        return say(
            "Both pyramids are complete; spreads {first} and {second}.",
            first=spreads[0],
            second=spreads[1],
        )
    if winner is not None and complete[winner]:
        return say("{seat} completed the pyramid.", seat=seat_title(winner, viewer))
    if winner is not None and before["phase"] != "last_card":
        return say("{seat} could not place a card.", seat=seat_title(1 - winner, viewer))
    return say(
        "After the last cards: fields occupied {first} and {second}, spreads {third} and {fourth}.",
        first=occupied[0],
        second=occupied[1],
        third=spreads[0],
        fourth=spreads[1],
    )


def _round_lines(viewer: int | None, before: dict[str, Any], after: dict[str, Any]) -> list[Words]:
    if not _round_over(before, after) or not after.get("last_round"):
        return []
    result = after["last_round"]
    # The cause first, then the winner it made: "You could not place a card. Round 1
    # goes to Medium (bot)."
    lines = [_reason(viewer, result, before)]
    if result["winner"] is None:
        lines.append(say("Round {round} is drawn.", round=result["round"]))
    else:
        lines.append(
            say(
                "Round {round} goes to {seat}.",
                round=result["round"],
                seat=seat_words(result["winner"], viewer),
            )
        )
    wins = after["round_wins"]
    lines.append(say("Rounds won: {first_seat} {first}, {second_seat} {second}.",
                     first_seat=seat_words(0, viewer), first=wins[0],
                     second_seat=seat_words(1, viewer), second=wins[1]))
    if after["phase"] == "over":
        if after.get("winner") is None:
            lines.append(say("The match is drawn."))
        else:
            lines.append(say("{seat} won the match.", seat=seat_title(after["winner"], viewer)))
    else:
        lines.append(
            say(
                "Round {round} begins; first to play: {seat}.",
                round=after["round"],
                seat=seat_words(after["starting_player"], viewer),
            )
        )
    return lines


def describe_pacal(
    action: str, actor: int, viewer: int | None, before: dict[str, Any], after: dict[str, Any]
) -> list[Words]:
    """The lines one audience reads about one move of the match."""
    return [
        *_move_lines(action, actor, viewer, before, after),
        *_round_lines(viewer, before, after),
    ]


def describe_pacal_solo(
    action: str, actor: int, viewer: int | None, before: dict[str, Any], after: dict[str, Any]
) -> list[Words]:
    """The lines of one move of the solo game: the card placed, the next card drawn."""
    words = action.split()
    if words[0] != "place":
        return [say("{seat}: {action}", seat=seat_title(actor, viewer), action=action)]
    field = int(words[1].lstrip("Ff"))
    covered = before["pyramid"][field - 1]
    if covered:
        lines = [say("Placed {card} on F{field}, covering {covered}.", card=before["card"],
                     field=field, covered=covered[-1])]
    else:
        lines = [say("Placed {card} on F{field}.", card=before["card"], field=field)]
    if after["result"] == "won":
        lines.append(say("The pyramid is complete: won with {draws} draws.", draws=after["draws"]))
    elif after["result"] == "lost":
        if after.get("card") is not None:
            lines.append(
                say("Drew {card}, which fits no field: the game is lost.", card=after["card"])
            )
        else:
            lines.append(say("The game is lost."))
    elif after.get("card") is not None:
        lines.append(say("Drew {card}.", card=after["card"]))
    return lines
