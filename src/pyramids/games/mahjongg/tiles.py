"""The 144 tiles of Mahjongg Pyramids, their match classes and pair points.

Rules implemented (rules page, "Tiles"):

| group | faces | copies | matches with | pair points |
|---|---|---|---|---|
| Scarab 1-9, Papyrus 1-9, Glyph 1-9 | 27 | 4 | the identical tile | 100 |
| Deity: Ra, Horus, Anubis, Isis | 4 | 4 | identical, or its partner (*) | 250 |
| Season: Nile Inundation, Harvest, Oasis | 3 | 2 | any season | 300 |
| Element: Sun, Wind, Sandstorm | 3 | 2 | any element | 300 |
| Royal: Golden Pharaoh, Sacred Scepter | 2 | 4 | the identical tile | 500 |

(*) the pantheon partner (Ra-Horus, Anubis-Isis) when `pantheon_pairs` is on.

A face is an int 0..38. A match class is an int; two free tiles match when
their classes are equal.

A layout of N != 144 tiles (N even) uses a subset in which every match class has
an even count, chosen in proportion to the full set **[ours]**: each class gets
its share of N/2 pairs by largest remainder (ties to the earlier class), and
within a class the pairs go to its faces in turn. For N = 72 that is exactly two
of every four-copy face, with four season and two element tiles (half of six
would be odd). Above 144 the set repeats (KMahjongg does the same for its larger
layouts).
"""

from __future__ import annotations

from dataclasses import dataclass

SUITS = ("Scarab", "Papyrus", "Glyph")
DEITIES = ("Ra", "Horus", "Anubis", "Isis")
SEASONS = ("Nile Inundation", "Harvest", "Oasis")
ELEMENTS = ("Sun", "Wind", "Sandstorm")
ROYALS = ("Golden Pharaoh", "Sacred Scepter")

FULL_SET_SIZE = 144


@dataclass(frozen=True)
class Face:
    index: int
    group: str  # "suit", "deity", "season", "element", "royal"
    name: str  # e.g. "Scarab 7", "Anubis"
    short: str  # a 2-3 character label for terminals, e.g. "S7", "Anb"
    copies: int
    points: int


def _build_faces() -> tuple[Face, ...]:
    faces: list[Face] = []
    for suit in SUITS:
        for value in range(1, 10):
            faces.append(Face(len(faces), "suit", f"{suit} {value}", f"{suit[0]}{value}", 4, 100))
    for name in DEITIES:
        faces.append(Face(len(faces), "deity", name, name[:3], 4, 250))
    for name in SEASONS:
        faces.append(Face(len(faces), "season", name, name[:2] + "*", 2, 300))
    for name in ELEMENTS:
        faces.append(Face(len(faces), "element", name, name[:2] + "~", 2, 300))
    for name in ROYALS:
        faces.append(Face(len(faces), "royal", name, name.split()[1][:3], 4, 500))
    return tuple(faces)


FACES: tuple[Face, ...] = _build_faces()
NUM_FACES = len(FACES)
FACE_BY_NAME = {face.name.lower(): face for face in FACES}


def match_class(face: int, pantheon_pairs: bool = True) -> int:
    """The class of a face: equal classes match. Wild groups share one class."""
    info = FACES[face]
    if info.group == "season":
        return NUM_FACES  # one class for all seasons
    if info.group == "element":
        return NUM_FACES + 1
    if info.group == "deity" and pantheon_pairs:
        first_deity = FACE_BY_NAME["ra"].index
        # Ra-Horus and Anubis-Isis: partners are adjacent faces.
        return first_deity + ((face - first_deity) // 2) * 2
    return face


def match_classes(pantheon_pairs: bool = True) -> tuple[int, ...]:
    """`match_class` for every face, as a lookup table."""
    return tuple(match_class(face, pantheon_pairs) for face in range(NUM_FACES))


def faces_match(a: int, b: int, pantheon_pairs: bool = True) -> bool:
    return match_class(a, pantheon_pairs) == match_class(b, pantheon_pairs)


def pair_points(face: int) -> int:
    """Base points of a pair that holds this face (both tiles share a group)."""
    return FACES[face].points


def full_set() -> list[int]:
    """The 144 faces, each as often as it has copies, in face order."""
    return [face.index for face in FACES for _ in range(face.copies)]


def tile_set(count: int) -> list[int]:
    """The faces for a layout of `count` tiles (even, positive), in face order.

    Every match class gets an even count under both pantheon settings, because
    the subset is chosen by pairs of identical faces where a class has them and
    by pairs of one wild group otherwise.
    """
    if count <= 0 or count % 2:
        raise ValueError(f"a layout needs a positive even number of tiles, not {count}")
    full_copies, rest = divmod(count, FULL_SET_SIZE)
    faces = full_set() * full_copies
    if rest:
        faces += _proportional_subset(rest)
    return sorted(faces)


def _proportional_subset(count: int) -> list[int]:
    # Units that always keep every class even: a pair of one identical face, or
    # a pair of tiles from one wild group (seasons, elements).
    groups: list[list[int]] = []  # per unit class, the faces its pairs cycle over
    for face in FACES:
        if face.group not in ("season", "element"):
            groups.append([face.index] * (face.copies // 2))
    for wild in ("season", "element"):
        members = [face.index for face in FACES if face.group == wild]
        groups.append(members)  # 6 tiles = 3 pairs, cycling over the faces
    pair_capacity = [len(g) for g in groups]
    total_pairs = sum(pair_capacity)
    wanted = count // 2
    shares = [capacity * wanted / total_pairs for capacity in pair_capacity]
    pairs = [int(share) for share in shares]
    remainders = sorted(
        range(len(groups)), key=lambda i: (-(shares[i] - pairs[i]), i)
    )
    for i in remainders[: wanted - sum(pairs)]:
        pairs[i] += 1
    faces: list[int] = []
    for group, number in zip(groups, pairs, strict=True):
        if len(set(group)) == 1:
            faces += [group[0]] * (2 * number)
        else:
            # Two tiles of a wild group form a pair: take faces in turn.
            tiles = [group[k % len(group)] for k in range(2 * number)]
            faces += tiles
    return faces
