# The compiled core of the solver (_solvercore.c), as solver_compiled uses it.
MASK_WORDS: int
MAX_TILES: int
COROUTINES: int

class Board:
    def __init__(
        self, n: int, above: bytes, left: bytes, right: bytes, below: bytes,
        neighbour: bytes, weights: list[int], /,
    ) -> None: ...

class Search:
    nodes: int
    odd: bool
    def __init__(
        self, board: Board, class_keys: list[int], present: bytes, node_limit: int,
        options: int, tunables: tuple[object, ...], /,
    ) -> None: ...
    def attempt(
        self, attempt_limit: int, noise: int, seconds_left: float, /
    ) -> tuple[int, list[tuple[int, int]]]: ...
    def settle(self, pairwise: bool, /) -> bool: ...
    def root_deadlocked(self) -> bool: ...
    def walk(self, steps: int, seed: int, /) -> list[tuple[int, int]] | None: ...
    def pairings(
        self, tests: int, seconds_left: float, /
    ) -> tuple[int, list[tuple[int, int]], int]: ...
    def forbidden_pairs(self) -> list[tuple[int, int]]: ...
