"""`determinized`: Mahjongg solo with hidden faces, by perfect-information Monte Carlo.

With face-down tiles on the board, the agent draws determinizations: the faces
it has not seen (the layout's tile set less the faces of the tiles removed and
the faces showing) shuffled over the face-down tiles. The exact solver
(`pyramids.games.mahjongg.solver`, at most `node_limit` positions a call) first
asks whether the board can be cleared under the sample; a sample under which it
cannot (or with no verdict) has no vote, so most samples cost one call. On each
of up to `samples` samples that clear (drawing at most `draws` in all) the
solver tries every legal pair, and the agent plays the pair that keeps the most
of them clearable (no verdict counts one half); ties, and positions where no
sample clears, go to the greedy evaluation
(`pyramids.agents.greedy.mahjongg.action_scores`). All pairs are judged on the
same samples (common random numbers). Counting among uniform samples ranks the
pairs as the deal's own chances do: a deal dealt solvable is one that clears,
and a pair that keeps a sample clearable keeps it among those.
With every face showing it follows one clearing the solver finds, as the planner
does. With no pair on the board it plays the greedy move (favors, or a pass).

On a tall board early on almost no shuffle clears (Pharaoh's Tomb with every
covered tile face down: none of 300 at the start), so no sample votes and the
greedy move is played. With `fill=built`, when fewer than half the samples
clear, samples built to clear (`pyramids.agents.mahjongg_sampling`: the faces
shown kept, the unseen ones given pair by pair along a clearing) fill in; a
build that fails says the board is most likely lost, and no more are tried.
`fill=none` (the default) uses shuffles only.

It reads only the view and the faces of tiles already removed (each was face
up when it left the board): two states that differ only in the faces under
face-down tiles get the same move from the same seed. The samples come from the
agent's own generator, seeded from its seed, so a game replays exactly. It never
uses undo, hints or favors to look under tiles. Games other than Mahjongg with
one player are played by greedy.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from pyramids.agents.base import not_valid, whole_number
from pyramids.agents.greedy import greedy_action
from pyramids.agents.greedy.mahjongg import action_scores
from pyramids.agents.mahjongg_planning import next_action
from pyramids.agents.mahjongg_sampling import built_faces
from pyramids.core import Rng, State
from pyramids.games.mahjongg.geometry import Geometry
from pyramids.games.mahjongg.state import MahjonggState

DEFAULT_SAMPLES = 12
DEFAULT_NODE_LIMIT = 2_000
PLAN_NODE_LIMIT = 200_000
UNDECIDED = 0.5  # a sample on which the solver ran out of its budget
DEFAULT_DRAWS = 48
FILLS = ("none", "built")


def unseen_faces(state: State, seen: tuple[int, dict[int, int]] | None = None
                 ) -> list[int] | None:
    """The faces still hidden, as a sorted list, from what the player has seen:
    the layout's tile set less the removed tiles' faces and the faces showing.
    None when that does not add up (then the agent does not sample). `seen` is
    `board_seen(state)` where the caller has already read it."""
    from pyramids.games.mahjongg.tiles import tile_set

    game: Any = state.game
    present, known = board_seen(state) if seen is None else seen
    faces: Any = getattr(state, "faces", None)
    if faces is None:
        return None
    left = Counter(tile_set(game.layout.size))
    left.subtract(faces[t] for t in range(game.layout.size) if not present >> t & 1)
    left.subtract(known.values())
    if any(count < 0 for count in left.values()):
        return None
    unseen = sorted(left.elements())
    hidden = present.bit_count() - len(known)
    return unseen if len(unseen) == hidden else None


def board_seen(state: State) -> tuple[int, dict[int, int]]:
    """From the player's view: the tiles on the board (a bit mask) and the faces
    showing among them (tile -> face)."""
    present = 0
    known: dict[int, int] = {}
    for tile in state.view(state.current_player)["tiles"]:
        present |= 1 << tile["id"]
        if tile["face_index"] is not None:
            known[tile["id"]] = int(tile["face_index"])
    return present, known


class DeterminizedAgent:
    name = "determinized"

    @staticmethod
    def serves(game: str) -> bool:
        """Made for Mahjongg's face-down tiles: elsewhere it plays greedy."""
        from pyramids.core import game_manifest
        from pyramids.games.mahjongg.game import MahjonggGame

        factory = game_manifest(game).factory
        return isinstance(factory, type) and issubclass(factory, MahjonggGame)

    def __init__(self, seed: int | None = 0, samples: int = DEFAULT_SAMPLES,
                 node_limit: int = DEFAULT_NODE_LIMIT,
                 plan_node_limit: int = PLAN_NODE_LIMIT, draws: int = DEFAULT_DRAWS,
                 fill: str = "none") -> None:
        self.rng = Rng(seed)
        if fill not in FILLS:
            raise not_valid(self.name, "fill", fill, FILLS)
        self.fill = fill
        self.samples = whole_number(self.name, "samples", samples, 1)
        self.sample_node_limit = whole_number(self.name, "node_limit", node_limit, 1)
        self.draws = max(whole_number(self.name, "draws", draws, 1), self.samples)
        # mahjongg_planning.next_action reads `node_limit`, `_plan` and `_plan_key`.
        self.node_limit = whole_number(self.name, "plan_node_limit", plan_node_limit, 1)
        self._plan: list[int] = []
        self._plan_key: str | None = None

    def reseed(self, seed: int | None) -> None:
        """Play on as a new agent made with `seed`: a new generator, no plan kept."""
        self.rng = Rng(seed)
        self._plan = []
        self._plan_key = None

    def step(self, state: State) -> int:
        if not isinstance(state, MahjonggState) or state.game.num_players != 1:
            return greedy_action(state, self.rng)
        action = next_action(self, state)  # every face showing: the solver's clearing
        if action is not None:
            return action
        scores = self.pair_scores(state)
        if not scores:
            return greedy_action(state, self.rng)
        return max(sorted(scores), key=scores.__getitem__)

    def pair_scores(self, state: State) -> dict[int, float]:
        """Each legal pair's count of clearable samples, the greedy score breaking ties
        (empty when there is no pair, or `finish` is legal)."""
        greedy = action_scores(state)
        names = {a: state.action_to_string(a) for a in greedy}
        if "finish" in names.values():
            return {}
        pairs = [(a, n.split()) for a, n in names.items() if n.startswith("match ")]
        if not pairs:
            return {}
        clearable = self.clearable_counts(state, [(int(p[1]), int(p[2])) for _, p in pairs])
        # The greedy score lies far below one sample's worth.
        spread = max(abs(greedy[a]) for a, _ in pairs) + 1.0
        return {a: clearable[i] + 0.5 * greedy[a] / spread / (self.samples + 1)
                for i, (a, _) in enumerate(pairs)}

    def clearable_counts(self, state: State, pairs: list[tuple[int, int]]) -> list[float]:
        """For each pair of tile ids: on how many of the samples under which the board
        clears it still clears after the pair."""
        game: Any = state.game
        pantheon = bool(game.options.get("pantheon_pairs", True))
        present, known = board_seen(state)
        hidden = [t for t in range(game.layout.size) if present >> t & 1 and t not in known]
        unseen = unseen_faces(state, (present, known)) if hidden else []
        if unseen is None:
            return [0.0] * len(pairs)
        base = [0] * game.layout.size
        for tile, face in known.items():
            base[tile] = face
        counts = [0.0] * len(pairs)
        clearing = 0  # samples under which the board now can be cleared
        for _ in range(self.draws if hidden else 1):
            faces = list(base)
            drawn = list(unseen)
            self.rng.shuffle(drawn)
            for tile, face in zip(hidden, drawn, strict=True):
                faces[tile] = face
            if self._vote(game.geometry, pantheon, faces, present, pairs, counts):
                clearing += 1
                if clearing >= self.samples:
                    return counts
        if hidden and self.fill == "built" and clearing < self.samples // 2:
            # Too few shuffles clear (a tall board early on): samples built to clear.
            # A build that fails all its attempts says the board is most likely lost:
            # no more builds then.
            for _ in range(self.samples - clearing):
                built = built_faces(game.geometry, present, known, unseen, self.rng, pantheon)
                if built is None:
                    break
                self._vote(game.geometry, pantheon, built[0], present, pairs, counts)
        return counts

    def _vote(self, geometry: Geometry, pantheon: bool, faces: list[int], present: int,
              pairs: list[tuple[int, int]], counts: list[float]) -> bool:
        """Add one sample's votes to `counts` when the board clears under `faces`:
        1 for each pair after which it still clears, `UNDECIDED` where the solver has
        no verdict. False (no vote) when the board does not clear, or no verdict."""
        from pyramids.games.mahjongg.solver import solve

        now = solve(geometry, faces, present_mask=present, pantheon_pairs=pantheon,
                    node_limit=self.sample_node_limit)
        if not now.solvable:  # lost whatever the pair (or no verdict): no vote
            return False
        first = set(now.moves[0]) if now.moves else set()
        for i, (a, b) in enumerate(pairs):
            if {a, b} == first:
                counts[i] += 1.0
                continue
            result = solve(geometry, faces, present_mask=present & ~(1 << a | 1 << b),
                           pantheon_pairs=pantheon, node_limit=self.sample_node_limit)
            if result.solvable is None:
                counts[i] += UNDECIDED
            elif result.solvable:
                counts[i] += 1.0
        return True
