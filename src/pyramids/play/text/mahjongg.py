"""Mahjongg Pyramids views as plain text (the `text_renderer` companion)."""

from __future__ import annotations

from typing import Any

from pyramids.games.mahjongg.modes import TURNS_BEHIND
from pyramids.play.i18n import _, format_number, ngettext
from pyramids.play.render import terminal_width
from pyramids.play.text.mahjongg_tiles import NARROW, SCALES, Marks, board_size, paint


def tile_label(tile_id: int) -> str:
    """The letters a person types for a tile at line prompts: a..z, then aa, ab, ...
    Fixed for the game (a tile keeps its letters), like a square's name in chess."""
    letters = ""
    number = tile_id + 1
    while number:
        number, rest = divmod(number - 1, 26)
        letters = chr(ord("a") + rest) + letters
    return letters


def move_labels(view: dict[str, Any]) -> dict[str, str]:
    """The `move_labels` companion: for each tile number in the action strings, the
    letters printed on that tile (`match 55 143` is typed `match cd en`)."""
    return {str(tile["id"]): tile_label(tile["id"]) for tile in view.get("tiles", [])}


def board_lines(tiles: list[dict[str, Any]], width: int) -> list[str]:
    """The board from above, as the terminal app draws it without colour: each tile its
    face and, under it, its letters; blocked tiles hatched; higher layers one column to
    the left. Narrower tiles, without that side view, when these do not fit `width`."""
    if not tiles:
        return [_("(no tiles left)")]
    scale = SCALES[0] if board_size(tiles, SCALES[0])[0] <= width else NARROW
    # Every tile's letters, where that part of it shows (a free tile's always do): a
    # pair is two free tiles, and Anubis Shift and Tile Reveal aim at blocked ones.
    labels = {tile["id"]: tile_label(tile["id"]) for tile in tiles}
    canvas = paint(tiles, scale, Marks(labels=labels))
    return [canvas.row_text(row).rstrip() for row in range(canvas.height)]


def plain_legend() -> list[str]:
    """What the board's marks mean, in lines that fit 80 columns."""
    return [
        _("(n) Scarab · |n| Papyrus · [n] Glyph · *Ra *Ho *An *Is deities · ~ season"),
        _("= element · $ royal · ▒▒▒ face down · ×N: pairs there score N×"),
        _("Under each face its letters; a clear lower line: free, hatched ░: blocked."),
        _("Type two free tiles' letters to match them, for example: match a b"),
    ]


SAILED, AHEAD, BARQUE, SUNSET = "━", "─", "◆", "☼"


def barque_track(space: int, spaces: int) -> str:
    """The Solar Barque track as one line of `spaces + 1` cells: space 0 on the
    left, the barque `◆` on its space, the spaces sailed drawn heavy, sunset `☼`
    at the right end (where the barque stands once the time is up)."""
    space = max(0, min(space, spaces))
    if space == spaces:
        return SAILED * spaces + BARQUE
    return SAILED * space + BARQUE + AHEAD * (spaces - space - 1) + SUNSET


def reason_words(reason: str) -> str:
    """Why a game ended, in words (the view holds a code)."""
    reasons = {
        "cleared": _("the monument is cleared"),
        "lockout": _("no pair is left and no tokens to spend"),
        "all-passed": _("every player passed"),
        "time-up": _("time is up"),
    }
    return reasons.get(reason, reason)


def team_outcome(view: dict[str, Any]) -> str:
    """How a finished Co-op game ended for the team; a cleared monument with a vault
    left locked or forfeited is a loss, which the reason alone does not say."""
    result = view["result"]
    if result["team_won"]:
        return _("the team wins")
    if any(vault["state"] != "unlocked" for vault in view.get("vaults") or []):
        return _("the team loses: not every burial vault was unlocked")
    return _("the team loses")


def _mode(name: str) -> str:
    # The mode's title as the lobby and the app say it ("Standard Expedition").
    from pyramids.play.option_words import choice_title

    return _(choice_title("mode", name))


def shown_layout_title(name: str) -> str:
    """A shipped layout's title in the reader's language (a file's: from its name)."""
    from pyramids.games.mahjongg.blueprints import layout_names, load_layout

    if name in layout_names():
        title = load_layout(name).title  # shipped layouts are read once and kept
        if title:
            return _(title)
    return name


def option_notes(view: dict[str, Any], options: dict[str, Any]) -> list[str]:
    """The lines under the view for what the options change that it does not show (the
    `text_notes` companion; the terminal app shows the same)."""
    if view["players"] > 1 and "team_score" not in view \
            and options.get("turn_order") == TURNS_BEHIND:
        # Under the catch-up order a player may move twice running: say why.
        return [_("Turn order: after a pair the lowest score moves next; after a pass, "
                  "the next seat.")]
    return []


def render_mahjongg(view: dict[str, Any], width: int | None = None) -> str:
    lines = [
        _("{mode} on {layout}: tiles {left}/{total}, bank {bank}, passes {passes}",
          mode=_mode(view["mode"]), layout=shown_layout_title(view["layout"]),
          left=view["tiles_left"], total=view["tiles_total"],
          bank=ngettext("{count} token", "{count} tokens", view["bank"]), passes=view["passes"]),
    ]
    tokens = view["tokens"]
    for seat in range(view["players"]):
        seat_tokens = tokens if isinstance(tokens, int) else tokens[seat]
        lines.append("  " + _(
            "seat {number}: score {score}, tokens {tokens}, streak {streak}, doubled pairs "
            "left {doubled}", number=seat + 1, score=format_number(view["scores"][seat]),
            tokens=seat_tokens,
            streak=view["streaks"][seat], doubled=view["doubling"][seat]))
    if "time_left" in view:
        lines.append("  " + _("time left {seconds} s", seconds=view["time_left"]))
    if view.get("barque"):
        barque = view["barque"]
        lines.append("  " + _("Solar Barque {track} {where}",
                              track=barque_track(barque["space"], barque["spaces"]),
                              where=ngettext("{count} space to sunset",
                                             "{count} spaces to sunset", barque["spaces_left"])
                              if barque["spaces_left"] else _("sunset")))
    lines.extend(plain_legend())
    lines.extend(board_lines(view.get("tiles", []), width or terminal_width()))
    if view.get("hint"):
        lines.append(_("Hint: match {first} {second}", first=tile_label(view["hint"][0]),
                       second=tile_label(view["hint"][1])))
    if view.get("sight_pairs"):
        lines.append(_("Ra Sight: {pairs}", pairs=", ".join(
            f"{tile_label(a)}-{tile_label(b)}" for a, b in view["sight_pairs"])))
    if view.get("result"):
        result = view["result"]
        if "team_won" in result:  # Co-op: one score, the team's, not the first seat's
            lines.append(_("Result: {reason}; team score {score}",
                           reason=reason_words(str(result.get("reason"))),
                           score=format_number(result["scores"][0])))
        else:
            scores = ", ".join(_("seat {number}: {points}", number=seat + 1,
                                 points=format_number(points))
                               for seat, points in enumerate(result.get("scores") or []))
            lines.append(_("Result: {reason}; scores {scores}",
                           reason=reason_words(str(result.get("reason"))), scores=scores))
        if "time_score" in result:  # Time Attack: seconds left, and 30 s per unused token
            lines.append(_("Time score: {score} ({seconds} s left).",
                           score=format_number(result["time_score"]),
                           seconds=result["time_left"]))
        if "team_won" in result:
            lines.append(team_outcome(view))
    return "\n".join(lines)
