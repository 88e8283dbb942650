"""A move in words, for the move log: what the card did to the climber.

It reads only the viewer's views before and after the move (the played card is
public: it is the new stone), so no hidden card can reach the log.
"""

from __future__ import annotations

from typing import Any

from pyramids.play.movelog import Words, say, seat_title


def describe(action: str, actor: int, viewer: int | None, before: dict[str, Any],
             after: dict[str, Any]) -> list[Words]:
    card, stone = after["stone"], before["stone"]
    who = seat_title(actor, viewer)
    if card > stone:
        line = say("{who} played {card} on {stone}: one step up", who=who, card=card,
                   stone=stone)
    elif card == stone:
        line = say("{who} matched the stone {stone}: two steps up", who=who, stone=stone)
    else:
        line = say("{who} played {card} under {stone}: no step", who=who, card=card,
                   stone=stone)
    return [line]
