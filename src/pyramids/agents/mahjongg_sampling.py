"""Faces for the face-down tiles that let the board clear, built rather than drawn.

On a tall blueprint with every covered tile face down (Pharaoh's Tomb: 116 of
144 at the start), a plain shuffle of the unseen faces almost never clears
(none of 300 shuffles on two deals), so `determinized` has no sample to vote
with and plays the greedy move until enough is known. `built_faces` gives it
samples that clear by construction, the way a solvable deal is built
(`pyramids.games.mahjongg.deal`): take two free tiles, remove them, and give
them a matching pair, here respecting what the player knows. A tile whose face
shows keeps it; a face-down tile gets a face from the unseen ones when its pair
is taken: beside a known face, one of that face's class; beside another
face-down tile, a random unseen face and one of its class. The pairs are taken
high tiles first (height plus noise, as the deal builder does), partners at
random; a dead end (free tiles that cannot pair with the faces left) backs up,
within a small budget of steps, and an attempt over budget starts afresh (a dead
end deep down mostly comes from a wrong choice near the top).

Built samples lean towards boards this construction finds easy, so they only
fill in where plain shuffles give too few (the agent's `fill` option).
Everything random comes from the given generator.
"""

from __future__ import annotations

from collections.abc import Sequence

from pyramids.core import Rng
from pyramids.games.mahjongg.geometry import Geometry
from pyramids.games.mahjongg.tiles import match_class

HEIGHT_NOISE = 2.5  # as the deal builder: towers mostly from the top, low tiles sometimes early
NODE_BUDGET = 200  # steps an attempt may take
ATTEMPTS = 16

Pair = tuple[int, int]


class _OutOfBudget(Exception):
    pass


def built_faces(geometry: Geometry, present: int, known: dict[int, int],
                unseen: Sequence[int], rng: Rng, pantheon_pairs: bool = True,
                node_budget: int = NODE_BUDGET) -> tuple[list[int], list[Pair]] | None:
    """A face for every present tile (absent tiles get -1) under which the present
    tiles clear, keeping the `known` faces (tile -> face) and giving the other
    present tiles the `unseen` faces, with the clearing that proves it; None when
    none of `ATTEMPTS` searches of at most `node_budget` steps finds one."""
    hidden = [t for t in range(geometry.size) if present >> t & 1 and t not in known]
    if len(hidden) != len(unseen):
        return None
    pool: dict[int, list[int]] = {}
    for face in unseen:
        pool.setdefault(match_class(face, pantheon_pairs), []).append(face)
    for faces_of_class in pool.values():
        rng.shuffle(faces_of_class)
    height = [z for _, _, z in geometry.positions]
    for _ in range(ATTEMPTS):
        faces = [-1] * geometry.size
        for tile, face in known.items():
            faces[tile] = face
        priority = [z + HEIGHT_NOISE * rng.random() for z in height]
        attempt_pool = {match: list(faces_of_class) for match, faces_of_class in pool.items()}
        builder = _Builder(geometry, attempt_pool, faces, rng, pantheon_pairs, priority,
                           node_budget)
        try:
            if builder.clear(present):
                return faces, builder.order
        except _OutOfBudget:
            continue
    return None


class _Builder:
    def __init__(self, geometry: Geometry, pool: dict[int, list[int]], faces: list[int],
                 rng: Rng, pantheon_pairs: bool, priority: list[float],
                 node_budget: int) -> None:
        self.geometry = geometry
        self.pool = pool
        self.faces = faces
        self.rng = rng
        self.pantheon_pairs = pantheon_pairs
        self.priority = priority
        self.node_budget = node_budget
        self.nodes = 0
        self.order: list[Pair] = []

    def class_of(self, tile: int) -> int | None:
        face = self.faces[tile]
        return None if face < 0 else match_class(face, self.pantheon_pairs)

    def clear(self, present: int) -> bool:
        if not present:
            return True
        self.nodes += 1
        if self.nodes > self.node_budget:
            raise _OutOfBudget
        free = self.geometry.free_tiles(present)
        firsts = sorted(free, key=self.priority.__getitem__, reverse=True)
        for first in firsts:
            partners = [t for t in free if t != first]
            self.rng.shuffle(partners)
            for second in partners:
                given = self.give_faces(first, second)
                if given is None:
                    continue
                self.order.append((first, second))
                if self.clear(present & ~(1 << first) & ~(1 << second)):
                    return True
                self.order.pop()
                self.take_back(given)
        return False

    def give_faces(self, first: int, second: int) -> list[tuple[int, int]] | None:
        """Faces for whichever of the two tiles is face down so that they match, from
        the pool; the (tile, face) given, or None when they cannot match."""
        first_class, second_class = self.class_of(first), self.class_of(second)
        if first_class is not None and second_class is not None:
            return [] if first_class == second_class else None
        if first_class is None and second_class is None:
            chosen = self.draw_class()
            if chosen is None:
                return None
            return [self.give(first, chosen), self.give(second, chosen)]
        shown_class = first_class if first_class is not None else second_class
        blank = second if first_class is not None else first
        if shown_class is None or not self.pool.get(shown_class):
            return None
        return [self.give(blank, shown_class)]

    def draw_class(self) -> int | None:
        """The class of a face drawn at random from the pool among classes with two
        faces left (a class with more faces is likelier); None if there is none."""
        classes = sorted(c for c, faces in self.pool.items() if len(faces) >= 2)
        if not classes:
            return None
        pick = self.rng.randrange(sum(len(self.pool[c]) for c in classes))
        for match in classes:
            pick -= len(self.pool[match])
            if pick < 0:
                return match
        return classes[-1]

    def give(self, tile: int, match: int) -> tuple[int, int]:
        face = self.pool[match].pop()
        self.faces[tile] = face
        return tile, face

    def take_back(self, given: list[tuple[int, int]]) -> None:
        for tile, face in reversed(given):
            self.pool[match_class(face, self.pantheon_pairs)].append(face)
            self.faces[tile] = -1
