"""Summit, as a game plugin for pyramids: the example of docs/adding-a-game.md with
hidden information (hidden hands and a shuffled deck) and its own Korean words.

Rules (rules.md is the page players read): 2 to 4 climbers (option `players`)
race up a pyramid of `height` steps (option, 5 by default). The deck holds the
cards 1 to 9 twice each; each climber is dealt 3 hidden cards and one card is
turned up as the stone. In turn, from seat 1, each plays a card onto the stone:
higher climbs one step, equal climbs two, lower stays; the card becomes the
stone, and the climber draws the deck's top card while there is one. Climbers
with empty hands are skipped. The first to reach the summit wins; when every hand
is empty, the highest climbers share the win.

One module a concern:

- `game`: the rules (`SummitGame`, `SummitState`): moves, the end, views,
  `resample_hidden`, saving;
- `views`: the view's type (`SummitView`), checked against every view;
- `greedy`: the greedy policy (and so the `easy`..`expert` bots);
- `text`: the plain-text drawing, `log`: a move in words for the move log;
- `rules.md`: the rules page, `rules.ko.md` the same in Korean; `locale/ko.po`: the
  Korean of every word above.

The package declares one entry point in the group `pyramids.games`
(`summit = "pyramids_summit:MANIFEST"`); pyramids reads it and lists the game
everywhere, with the companions the manifest names.
"""

from __future__ import annotations

from importlib.resources import files

from pyramids.core import GameManifest, packaged_rules_pages

from .game import SummitGame, SummitState
from .views import SummitView


def rules_page() -> str:
    return files(__name__).joinpath("rules.md").read_text(encoding="utf-8")


MANIFEST = GameManifest(
    name="summit",
    title="Summit",
    summary="Race up the pyramid: beat the stone to climb, match it to leap",
    factory=SummitGame,
    variants=({}, {"players": 3}, {"players": 4, "height": 3}, {"height": 1}),
    rules_page=rules_page,
    # The page players read: rules.md in English, rules.ko.md in Korean.
    learn_page=packaged_rules_pages(__name__),
    view_type=SummitView,
    players_option="players",
    order=110,
    greedy_policy="pyramids_summit.greedy",
    text_renderer="pyramids_summit.text:render",
    move_log="pyramids_summit.log:describe",
    catalogue="pyramids_summit:locale",
    quick_engine=True,
)

__all__ = ["MANIFEST", "SummitGame", "SummitState", "SummitView", "rules_page"]
