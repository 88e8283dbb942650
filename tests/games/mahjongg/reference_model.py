"""A plain reference model of Mahjongg Pyramids, written from the rules page
(/work/shared/rules/mahjongg.md and docs/rules/mahjongg.md) only, for differential
testing against the engine (test_against_reference.py).

It takes from the engine only what a player is given: the layout (positions and
markers), the options, the faces of the deal, and, where the rules leave the
outcome to chance or to the engine's choice (a Sandstorm Reshuffle's new faces,
the pairs `finish` makes), the engine's answer, which the model then checks.
"""

from __future__ import annotations

import copy
import functools
from dataclasses import dataclass, field
from typing import Any

# Face numbers 0..38 in the rules page's table order: 27 suit faces, 4 deities,
# 3 seasons, 3 elements, 2 royals.
SUITS = [f"{s} {v}" for s in ("Scarab", "Papyrus", "Glyph") for v in range(1, 10)]
DEITIES = ["Ra", "Horus", "Anubis", "Isis"]
SEASONS = ["Nile Inundation", "Harvest", "Oasis"]
ELEMENTS = ["Sun", "Wind", "Sandstorm"]
ROYALS = ["Golden Pharaoh", "Sacred Scepter"]
NAMES = SUITS + DEITIES + SEASONS + ELEMENTS + ROYALS
SIMPLE = ("pass", "sight", "reshuffle", "undo", "hint", "finish")


def group(face: int) -> str:
    name = NAMES[face]
    for label, names in (("suit", SUITS), ("deity", DEITIES), ("season", SEASONS),
                         ("element", ELEMENTS), ("royal", ROYALS)):
        if name in names:
            return label
    raise AssertionError(face)


POINTS = {"suit": 100, "deity": 250, "season": 300, "element": 300, "royal": 500}


def match_key(face: int, pantheon: bool) -> str:
    g, name = group(face), NAMES[face]
    if g in ("season", "element"):
        return g
    if g == "deity" and pantheon:
        return "Ra" if name in ("Ra", "Horus") else "Anubis"
    return name


@dataclass
class Model:
    pos: list[tuple[int, int, int]]
    faces: list[int]
    capstones: list[int]
    vaults: list[int]
    marked_down: set[int]
    opts: dict[str, Any]
    players: int
    present: set[int] = field(default_factory=set)
    down: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        self._near: dict[tuple[Any, ...], set[int]] = {}  # a cache of the fixed geometry
        o = self.opts
        self.mode = o["mode"]
        self.coop = self.mode == "coop"
        self.timed = self.mode == "time-attack"
        self.turn_clock = self.timed and o["clock"] == "turns"
        self.solo = self.players == 1
        wallets = 1 if self.coop else self.players
        start = o["start_tokens"]
        self.tokens = [start * (self.players if self.coop else 1)] * wallets
        self.score = [0] * wallets
        self.bank = o["bank"] - start * self.players
        self.streak = [0] * self.players
        self.doubling = [0] * self.players
        self.caps_won = [0] * self.players
        self.vaults_won = [0] * self.players
        self.deity = [0] * self.players
        self.cap_by: dict[int, int | None] = {c: None for c in self.capstones}
        self.vault_state = {v: "locked" for v in self.vaults}
        self.vault_by: dict[int, int | None] = {v: None for v in self.vaults}
        self.present = set(range(len(self.pos)))
        self.down = {t for t in self.marked_down if not self.top_free(t)}
        self.player = 0
        self.passes = 0
        self.shift: int | None = None
        self.sight = False
        self.hint = False
        self.elapsed = 0
        self.last_pair_at = 0
        self.spent = 0  # every token ever paid for a favor (an undo never lowers it)
        # Every favor payment, [cost, fate]: fate None until an undo takes it back,
        # then True if its tokens stay spent (`undo_keeps_peeks_paid`), else False.
        self.payments: list[list[Any]] = []
        self.hidden_shuffles = 0  # reshuffles played while a tile lay face down
        self.undo: list[dict[str, Any]] = []
        self.over = False
        self.reason: str | None = None
        self.token_bonus = [0] * wallets
        self.last: dict[str, Any] = {}  # the last pair's score breakdown
        self.speed: dict[str, int] = {}  # and its time attack bonuses
        for v in self.vaults:
            if self.exposed(v):
                self.vault_state[v] = "unlocked"
        self.check_end()

    # -- geometry --------------------------------------------------------------
    def near(self, t: int, dz: int, dx: tuple[int, ...], dy: tuple[int, ...]) -> bool:
        """Whether a tile on the board lies at one of these offsets from tile t."""
        key = (t, dz, dx, dy)
        if key not in self._near:
            x, y, z = self.pos[t]
            self._near[key] = {u for u, (ux, uy, uz) in enumerate(self.pos) if u != t and
                               uz == z + dz and ux - x in dx and uy - y in dy}
        return not self._near[key].isdisjoint(self.present)

    def top_free(self, t: int) -> bool:
        return not self.near(t, 1, (-1, 0, 1), (-1, 0, 1))

    def free(self, t: int) -> bool:
        left = self.near(t, 0, (-2,), (-1, 0, 1))
        right = self.near(t, 0, (2,), (-1, 0, 1))
        return self.top_free(t) and not (left and right)

    def exposed(self, t: int) -> bool:
        return self.top_free(t) and not (self.near(t, 0, (-2, 2), (-1, 0, 1))
                                         or self.near(t, 0, (-1, 0, 1), (-2, 2)))

    def usable(self, t: int) -> bool:
        return t in self.present and (self.free(t) or t == self.shift)

    def matches(self, a: int, b: int) -> bool:
        p = self.opts["pantheon_pairs"]
        return match_key(self.faces[a], p) == match_key(self.faces[b], p)

    def valid_pairs(self) -> list[tuple[int, int]]:
        ts = sorted(t for t in self.present if self.usable(t))
        return [(a, b) for i, a in enumerate(ts) for b in ts[i + 1:] if self.matches(a, b)]

    def can_clear(self, first: tuple[int, int] | None = None) -> bool:
        """Whether matching alone clears the board (after `first`, if given); the
        shifted tile counts as free for the first pair only. For small boards."""
        board, shift = self.present, self.shift

        @functools.cache
        def clears(tiles: frozenset[int]) -> bool:
            self.present, self.shift = set(tiles), None
            pairs = self.valid_pairs()
            return not tiles or any(clears(tiles - {a, b}) for a, b in pairs)

        try:
            if first is not None:
                return clears(frozenset(board) - set(first))
            return any(clears(frozenset(board) - {a, b}) for a, b in self.valid_pairs())
        finally:
            self.present, self.shift = board, shift

    def wallet(self, player: int) -> int:
        return 0 if self.coop else player

    # -- legal actions, as strings ---------------------------------------------
    def legal(self) -> set[str]:
        if self.over:
            return set()
        o, w = self.opts, self.tokens[self.wallet(self.player)]
        pairs = self.valid_pairs()
        out = {f"match {a} {b}" for a, b in pairs} | {"pass"}
        if w >= o["shift_cost"] and self.shift is None:
            out |= {f"shift {t}" for t in self.present if not self.free(t)}
        if w >= o["sight_cost"] and not self.sight:
            out.add("sight")
        if w >= o["reshuffle_cost"] and not pairs:
            out.add("reshuffle")
        if o["reveal_favor"] and w >= o["reveal_cost"]:
            out |= {f"reveal {t}" for t in self.down}
        if self.solo and self.undo_allowed():
            out.add("undo")
        if self.solo and pairs and not self.hint:
            out.add("hint")
        if (self.solo or self.coop) and all(self.free(t) for t in self.present):
            out.add("finish")
        if self.timed and not self.turn_clock:
            out |= {f"clock {s}" for s in range(self.elapsed + 1, o["time_limit_seconds"] + 1)}
        return out

    def undo_allowed(self) -> bool:
        if not self.undo:
            return False
        snap = self.undo[-1]
        return snap["tokens"][0] >= self.kept_by_undo(snap)[0]

    def kept_by_undo(self, snap: dict[str, Any]) -> tuple[int, bool]:
        """The favor tokens an undo to `snap` keeps spent, and whether the moves since
        it showed something of a face-down tile."""
        o = self.opts
        if not o["undo_refunds_favors"]:
            return self.spent - snap["spent"], True
        if not o["undo_keeps_peeks_paid"]:
            return 0, False
        peeked = bool(snap["down"] - self.down) or self.hidden_shuffles > snap["hidden_shuffles"]
        since = self.payments[len(snap["payments"]):]
        return sum(c for c, fate in since if fate or (fate is None and peeked)), peeked

    # -- applying --------------------------------------------------------------
    def apply(self, action: str, engine_faces: list[int] | None = None,
              finish_pairs: list[list[int]] | None = None) -> None:
        assert action in self.legal(), action
        words = action.split()
        kind, p, o = words[0], self.player, self.opts
        ticks = kind != "clock"
        if kind in ("match", "sight", "shift", "reveal", "reshuffle", "finish"):
            self.undo.append(self.snapshot())
        if kind == "match":
            self.remove(int(words[1]), int(words[2]), p)
            self.end_turn(matched=True)
        elif kind == "pass":
            self.passes += 1
            self.end_turn(matched=False)
        elif kind in ("sight", "shift", "reveal", "reshuffle"):
            self.pay(p, o[f"{kind}_cost"])
            if kind == "sight":
                self.sight = True
            elif kind == "shift":
                self.shift = int(words[1])
                self.down.discard(self.shift)
            elif kind == "reveal":
                self.down.discard(int(words[1]))
            else:
                assert engine_faces is not None
                left = sorted(self.present)
                assert sorted(engine_faces[t] for t in left) == sorted(self.faces[t] for t in left)
                self.faces = list(engine_faces)
                self.passes = 0
                if self.down:
                    self.hidden_shuffles += 1
        elif kind == "hint":
            self.hint = True
            self.streak[p] = 0
        elif kind == "undo":
            self.restore(self.undo.pop())
        elif kind == "finish":
            assert finish_pairs is not None
            pairs = [(a, b) for a, b in finish_pairs]
            most = self.most_vaults_opened(pairs) if len(pairs) <= 10 else None
            locked = [v for v in self.vaults if self.vault_state[v] == "locked"]
            for a, b in pairs:
                assert self.usable(a) and self.usable(b) and self.matches(a, b), (a, b)
                self.remove(a, b, p)
            opened = sum(self.vault_state[v] == "unlocked" for v in locked)
            assert most is None or not o["finish_saves_vaults"] or opened == most, pairs
        elif kind == "clock":
            self.elapsed = int(words[1])
            ticks = False
        if self.turn_clock and ticks:
            self.check_end()
            if not self.over:
                self.elapsed = min(self.elapsed + o["turn_seconds"], o["time_limit_seconds"])
        self.check_end()

    def most_vaults_opened(self, pairs: list[tuple[int, int]]) -> int:
        """The most locked vaults any order of these pairs (every tile free) opens."""
        locked = {v for v in self.vaults if self.vault_state[v] == "locked"}
        board = self.present

        def exposed(v: int, tiles: set[int]) -> bool:
            self.present = tiles
            return self.exposed(v)

        @functools.cache
        def most(left: frozenset[tuple[int, int]]) -> int:
            best = 0
            for pair in left:
                before = {t for q in left for t in q}
                after = before - set(pair)
                opened = sum(1 for v in locked & after
                             if exposed(v, after) and not exposed(v, before))
                best = max(best, opened + most(left - {pair}))
            return best

        result = most(frozenset(pairs))
        self.present = board
        return result

    def pay(self, player: int, cost: int) -> None:
        self.tokens[self.wallet(player)] -= cost
        self.bank += cost
        self.spent += cost
        self.payments.append([cost, None])
        self.streak[player] = 0

    def remove(self, a: int, b: int, p: int) -> None:
        o = self.opts
        fa = self.faces[a]
        base = POINTS[group(fa)] * (max(self.pos[a][2], self.pos[b][2]) + 1)
        doubled = self.doubling[p] > 0
        if doubled:
            base *= 2
            self.doubling[p] -= 1
        self.streak[p] += 1
        streak = o["streak_step"] * min(self.streak[p] - 1, o["streak_cap"])
        speed = self.speed_bonus(a, b)
        points = base + streak + speed
        self.last = {"pair_points": base, "doubled": doubled, "streak_bonus": streak,
                     "capstone_bonus": 0, "vaults_unlocked": [], "vault_bonus": 0}
        self.present -= {a, b}
        if group(fa) == "deity":
            self.deity[p] += 1
        caps = [t for t in (a, b) if t in self.cap_by]
        for c in caps:
            self.cap_by[c] = p
            self.caps_won[p] += 1
            points += o["capstone_bonus"]
            self.last["capstone_bonus"] += o["capstone_bonus"]
            self.doubling[p] = o["capstone_double_pairs"]
        for v in self.vaults:
            if self.vault_state[v] != "locked":
                continue
            if v not in self.present:
                self.vault_state[v] = "forfeited"
            elif self.exposed(v):
                self.vault_state[v], self.vault_by[v] = "unlocked", p
                self.vaults_won[p] += 1
                points += o["vault_bonus"]
                self.last["vault_bonus"] += o["vault_bonus"]
                self.last["vaults_unlocked"].append(v)
                gain = min(o["vault_tokens"], self.bank)
                self.bank -= gain
                self.tokens[self.wallet(p)] += gain
        self.down = {t for t in self.down if t in self.present and not self.top_free(t)}
        if caps and o["structural_shifts"]:
            r = 2 * o["settle_reach"] + 1
            for c in caps:
                cx, cy, cz = self.pos[c]
                self.down = {t for t in self.down if not (
                    self.pos[t][2] < cz and abs(self.pos[t][0] - cx) <= r
                    and abs(self.pos[t][1] - cy) <= r)}
        self.score[self.wallet(p)] += points
        self.last["points"] = points
        self.passes = 0

    def speed_bonus(self, a: int, b: int) -> int:
        if not self.timed:
            return 0
        o = self.opts
        quick = self.elapsed - self.last_pair_at <= o["speed_pair_seconds"]
        bonus = o["speed_pair_bonus"] if quick else 0
        self.last_pair_at = self.elapsed
        layers = bonus
        spaces = -(-o["time_limit_seconds"] // o["barque_space_seconds"])
        left = spaces - min(self.elapsed // o["barque_space_seconds"], spaces)
        if self.elapsed >= o["time_limit_seconds"]:
            left = 0
        for z in {self.pos[a][2], self.pos[b][2]}:
            if not any(self.pos[t][2] == z for t in self.present - {a, b}):
                bonus += o["speed_layer_bonus"] * left
        self.speed = {"speed_bonus": layers, "layer_bonus": bonus - layers}
        return bonus

    def end_turn(self, matched: bool) -> None:
        self.shift, self.sight, self.hint = None, False, False
        n, p = self.players, self.player
        if matched and self.opts["turn_order"] == "behind":
            order = [(p + k) % n for k in range(1, n + 1)]  # the mover comes last
            self.player = min(order, key=lambda q: (self.score[q], order.index(q)))
        else:
            self.player = (p + 1) % n

    def snapshot(self) -> dict[str, Any]:
        return copy.deepcopy({k: v for k, v in vars(self).items() if k not in ("undo", "_near")})

    def restore(self, snap: dict[str, Any]) -> None:
        since, peeked = self.kept_by_undo(snap)
        for payment in self.payments[len(snap["payments"]):]:
            if payment[1] is None:
                payment[1] = peeked
        keep = {"down": self.down & snap["down"], "elapsed": self.elapsed, "spent": self.spent,
                "payments": self.payments, "hidden_shuffles": self.hidden_shuffles}
        vars(self).update(copy.deepcopy(snap))
        vars(self).update(keep)
        self.tokens[0] -= since
        self.bank += since
        self.streak[0] = 0

    def check_end(self) -> None:
        if self.over:
            return
        if not self.present:
            self.finish_game("cleared")
        elif self.passes >= self.players:
            self.finish_game("all-passed")
        elif self.timed and self.elapsed >= self.opts["time_limit_seconds"]:
            self.finish_game("time-up")
        elif not self.valid_pairs() and not any(self.tokens):
            self.finish_game("lockout")

    def finish_game(self, reason: str) -> None:
        self.over, self.reason = True, reason
        self.player, self.shift, self.sight, self.hint = -1, None, False, False
        for w, t in enumerate(self.tokens):
            self.token_bonus[w] = t * self.opts["token_end_bonus"]
            self.score[w] += self.token_bonus[w]

    # -- the result --------------------------------------------------------------
    def team_won(self) -> bool:
        if not self.vaults:
            return not self.present
        return all(s == "unlocked" for s in self.vault_state.values())

    def returns(self) -> list[float]:
        if not self.over:
            return [0.0] * self.players
        if self.coop:
            return [1.0 if self.team_won() else -1.0] * self.players
        if self.solo:
            return [1.0 if not self.present else -1.0]
        won = self.winners()
        if len(won) == self.players:
            return [0.0] * self.players
        return [1.0 if p in won else -1.0 for p in range(self.players)]

    def winners(self) -> list[int]:
        """Highest score; ties: more capstones, then more vaults, then more deity pairs."""
        keys = [(self.score[p], self.caps_won[p], self.vaults_won[p], self.deity[p])
                for p in range(self.players)]
        return [p for p, k in enumerate(keys) if k == max(keys)]
