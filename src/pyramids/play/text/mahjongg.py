"""Mahjongg Pyramids views as plain text (the `text_renderer` companion)."""

from __future__ import annotations

from typing import Any

from pyramids.play.i18n import _, ngettext


def mahjongg_grid_lines(tiles: list[dict[str, Any]]) -> list[str]:
    """The board from above: each tile 6 characters by 2 lines, higher layers painted last.

    Line one: the face (`##` face down), `*` when free, the layer digit; line two
    the tile id. A half step is 3 characters across or 1 line down.
    """
    if not tiles:
        return [_("(no tiles left)")]
    width = (max(tile["x"] for tile in tiles) + 2) * 3 + 1
    height = max(tile["y"] for tile in tiles) + 2
    grid = [[" "] * width for _row in range(height)]
    for tile in sorted(tiles, key=lambda t: (t["z"], t["y"], t["x"])):
        face = str(tile.get("short") or "##")[:3] if tile.get("face") is not None else "##"
        free = "*" if tile.get("free") or tile.get("shifted") else " "
        top = f"{face:<3}{free}{tile['z']}|"
        bottom = f"{tile['id']:<5}|"
        left = tile["x"] * 3
        for dy, row in enumerate((top, bottom)):
            y = tile["y"] + dy
            for dx, char in enumerate(row):
                if y < height and left + dx < width:
                    grid[y][left + dx] = char
    return ["".join(row).rstrip() for row in grid]


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


def _mode(name: str) -> str:
    words = {"standard": _("standard"), "time-attack": _("time attack"), "coop": _("co-op")}
    return words.get(name, name)


def render_mahjongg(view: dict[str, Any]) -> str:
    lines = [
        _("{mode} on {layout}: tiles {left}/{total}, bank {bank} token(s), passes {passes}",
          mode=_mode(view["mode"]), layout=view["layout"], left=view["tiles_left"],
          total=view["tiles_total"], bank=view["bank"], passes=view["passes"]),
    ]
    tokens = view["tokens"]
    for seat in range(view["players"]):
        seat_tokens = tokens if isinstance(tokens, int) else tokens[seat]
        lines.append("  " + _(
            "seat {number}: score {score}, tokens {tokens}, streak {streak}, doubled pairs "
            "left {doubled}", number=seat + 1, score=view["scores"][seat], tokens=seat_tokens,
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
    lines.append(_("Each tile: its face, * if free, its layer; below, the number you type "
                   "(match A B). ## is face down."))
    lines.extend(mahjongg_grid_lines(view.get("tiles", [])))
    if view.get("hint"):
        lines.append(_("Hint: match {first} {second}", first=view["hint"][0],
                       second=view["hint"][1]))
    if view.get("sight_pairs"):
        lines.append(_("Ra Sight: {pairs}",
                       pairs=", ".join(f"{a}-{b}" for a, b in view["sight_pairs"])))
    if view.get("result"):
        result = view["result"]
        scores = ", ".join(_("seat {number}: {points}", number=seat + 1, points=points)
                           for seat, points in enumerate(result.get("scores") or []))
        lines.append(_("Result: {reason}; scores {scores}",
                       reason=reason_words(str(result.get("reason"))), scores=scores))
    return "\n".join(lines)
