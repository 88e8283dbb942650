"""Mahjongg Pyramids moves in words (the `move_log` companion).

Told from one audience's views before and after the move (rules.md): a pair
names its faces and what it earned (pair points, doubling, streak, capstone
and vault bonuses, time attack's quick-pair and layer bonuses, from the view's
`last_move`); favors name their cost in
tokens; tiles turned face up by the move are named (reveals). Ra Sight and
hints show pairs only in the view of the seat that asked, so only that seat
reads how many pairs it was shown. The server's clock ticks are not told.
"""

from __future__ import annotations

from typing import Any

from pyramids.play.movelog import Words, listing, say, say_n, seat_title, seat_words

SUITS = ("Scarab", "Papyrus", "Glyph")


def face_words(face: str | None) -> Words:
    """A face as players read it (the engine's face names are English ids)."""
    if not face:
        return say("a face-down tile")
    suit, _space, value = face.partition(" ")
    if value and suit == "Scarab":
        return say("Scarab {value}", value=value)
    if value and suit == "Papyrus":
        return say("Papyrus {value}", value=value)
    if value and suit == "Glyph":
        return say("Glyph {value}", value=value)
    # The other faces are single names, each a message of the catalogue already.
    return Words(face)


def _faces(view: dict[str, Any]) -> dict[int, str | None]:
    return {tile["id"]: tile["face"] for tile in view["tiles"]}


def _tokens(view: dict[str, Any], seat: int) -> int:
    tokens = view["tokens"]
    return tokens if isinstance(tokens, int) else tokens[seat]


def _spent(before: dict[str, Any], after: dict[str, Any], actor: int) -> int:
    return max(0, _tokens(before, actor) - _tokens(after, actor))


def _pair_lines(who: Words, faces: list[str | None], after: dict[str, Any]) -> list[Words]:
    gained = after.get("last_move") or {}
    lines = [
        say(
            "{seat} removed {first} and {second}.",
            seat=who,
            first=face_words(faces[0]),
            second=face_words(faces[1]),
        )
    ]
    if "points" not in gained:
        return lines
    parts = [say("{points} for the pair", points=gained.get("pair_points", 0))]
    if gained.get("doubled"):
        parts.append(say("doubled"))
    if gained.get("streak_bonus"):
        parts.append(say("streak bonus {points}", points=gained["streak_bonus"]))
    if gained.get("capstone_bonus"):
        parts.append(say("capstone bonus {points}", points=gained["capstone_bonus"]))
    if gained.get("vault_bonus"):
        parts.append(say("vault bonus {points}", points=gained["vault_bonus"]))
    if gained.get("speed_bonus"):
        parts.append(say("quick pair bonus {points}", points=gained["speed_bonus"]))
    if gained.get("layer_bonus"):
        parts.append(say("layer before sunset {points}", points=gained["layer_bonus"]))
    lines.append(
        say("+{points} points ({details}).", points=gained["points"], details=listing(parts))
    )
    return lines


def _move_lines(
    action: str, actor: int, viewer: int | None, before: dict[str, Any], after: dict[str, Any]
) -> list[Words]:
    who = seat_title(actor, viewer)
    words = action.split()
    faces = _faces(before)
    spent = _spent(before, after, actor)
    cost = say_n("{count} token", "{count} tokens", spent)
    if words[0] == "match":
        return _pair_lines(who, [faces.get(int(words[1])), faces.get(int(words[2]))], after)
    if words[0] == "shift":
        return [
            say(
                "{seat} used Anubis Shift on {face} ({cost}).",
                seat=who,
                face=face_words(_faces(after).get(int(words[1]))),
                cost=cost,
            )
        ]
    if words[0] == "reveal":
        return [
            say(
                "{seat} used Tile Reveal on {face} ({cost}).",
                seat=who,
                face=face_words(_faces(after).get(int(words[1]))),
                cost=cost,
            )
        ]
    if words[0] == "sight":
        lines = [say("{seat} used Ra Sight ({cost}).", seat=who, cost=cost)]
        if "sight_pairs" in after:
            shown = len(after["sight_pairs"])
            lines.append(say_n("It shows you {count} pair.", "It shows you {count} pairs.", shown))
        return lines
    if words[0] == "hint":
        return [say("{seat} asked for a hint (the streak ends).", seat=who)]
    if words[0] == "reshuffle":
        return [
            say(
                "{seat} used Sandstorm Reshuffle ({cost}): the tiles left are shuffled.",
                seat=who,
                cost=cost,
            )
        ]
    if words[0] == "undo":
        undone = after.get("last_move") or {}
        kept = undone.get("tokens_kept_spent", 0)
        if kept and undone.get("face_down_shown"):
            return [say_n("{seat} took back the last move; the {count} token paid for a "
                          "favor stays spent, since the moves taken back showed a "
                          "face-down tile.",
                          "{seat} took back the last move; the {count} tokens paid for "
                          "favors stay spent, since the moves taken back showed a "
                          "face-down tile.", kept, seat=who)]
        if kept:
            return [say_n("{seat} took back the last move; the {count} token paid for a "
                          "favor stays spent.",
                          "{seat} took back the last move; the {count} tokens paid for "
                          "favors stay spent.", kept, seat=who)]
        return [say("{seat} took back the last move.", seat=who)]
    if words[0] == "pass":
        return [say("{seat} passed.", seat=who)]
    if words[0] == "finish":
        gained = after.get("last_move") or {}
        pairs = len(gained.get("pairs", []))
        return [
            say_n(
                "{seat} finished the board: {count} pair removed, +{points} points.",
                "{seat} finished the board: {count} pairs removed, +{points} points.",
                pairs,
                seat=who,
                points=gained.get("points", 0),
            )
        ]
    if words[0] == "clock":
        return []
    return [say("{seat}: {action}", seat=who, action=action)]


def _reveal_lines(
    action: str, viewer: int | None, before: dict[str, Any], after: dict[str, Any]
) -> list[Words]:
    """Tiles the move turned face up (a shift or reveal names its own tile already)."""
    if action.split()[0] in ("shift", "reveal", "reshuffle"):
        return []
    hidden = {tile_id for tile_id, face in _faces(before).items() if face is None}
    shown = [
        tile["face"] for tile in after["tiles"] if tile["id"] in hidden and tile["face"] is not None
    ]
    if not shown:
        return []
    return [say("Turned face up: {faces}.", faces=listing(face_words(face) for face in shown))]


def _end_lines(viewer: int | None, before: dict[str, Any], after: dict[str, Any]) -> list[Words]:
    if after["phase"] != "over" or before["phase"] == "over":
        return []
    result = after.get("result") or {}
    lines = [say("The board is cleared.") if result.get("cleared") else say("The game is over.")]
    for seat, bonus in enumerate(result.get("token_bonus") or []):
        if bonus:  # the score jumps at the end: say why
            lines.append(say("{seat}: +{points} for the tokens left.",
                             seat=seat_title(seat, viewer), points=bonus))
    scores = after["scores"]
    if after.get("mode") == "coop":
        # One score, the team's: each seat's, listed, was the same number again and again.
        lines.append(say("Team score: {score}.", score=scores[0]))
        return lines
    lines.append(
        say(
            "Scores: {scores}.",
            scores=listing(
                say("{seat} {points}", seat=seat_words(seat, viewer), points=points)
                for seat, points in enumerate(scores)
            ),
        )
    )
    return lines


def describe_mahjongg(
    action: str, actor: int, viewer: int | None, before: dict[str, Any], after: dict[str, Any]
) -> list[Words]:
    """The lines one audience reads about one move (see the module docstring)."""
    lines = _move_lines(action, actor, viewer, before, after)
    return [
        *lines,
        *_reveal_lines(action, viewer, before, after),
        *_end_lines(viewer, before, after),
    ]
