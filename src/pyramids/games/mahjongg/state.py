"""One position of Mahjongg Pyramids: the board, the scores, the tokens, the turn.

Rules implemented here (the rules page has them all): removing a valid pair of
free tiles, scoring it (`scoring`), unlocking and forfeiting vaults, turning up
face-down tiles once nothing lies on them (and beneath a removed capstone:
`settling`), the favors (`favors`, and the Tile Reveal), passing, the
turn order and the end of the game (`modes`), undo and hints in the one-player
modes, `finish` once every remaining tile is free, and the clock of the time
attack with its Solar Barque track (`barque`).

Sets of tiles are bit masks (bit i = tile i). Everything that undo restores is
the "core" (`CORE`, one `core.saving` field list): an undo snapshot is its
JSON-able dict, which `to_json` also saves under "core", together with the
clock, the history and the undo stack (`MahjonggState.saved`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyramids.core.api import TERMINAL, RandomSource, State
from pyramids.core.errors import Words
from pyramids.core.rng import Rng
from pyramids.core.saving import (
    BOOL,
    JSON_OBJECT,
    RNG,
    SEED,
    Computed,
    Custom,
    Field,
    Int,
    Kept,
    ListOf,
    OneOf,
    Optional,
    SavedState,
    Schema,
)
from pyramids.core.views import Outcome
from pyramids.games.mahjongg import actions as act
from pyramids.games.mahjongg import barque, favors, finishing, modes, scoring
from pyramids.games.mahjongg.explain import why_illegal, why_no_tile_favor
from pyramids.games.mahjongg.geometry import tiles_in
from pyramids.games.mahjongg.tiles import FACES
from pyramids.games.mahjongg.viewing import build_outcome, build_result, build_view

if TYPE_CHECKING:
    from pyramids.games.mahjongg.game import MahjonggGame

LOCKED = "locked"
UNLOCKED = "unlocked"
FORFEITED = "forfeited"

# The core fields that hold one list entry per seat, and per wallet (a wallet is
# a seat, or the team in co-op).
_PER_SEAT = ("streaks", "doubling", "capstones", "vaults_won", "deity_pairs", "pairs")
_PER_WALLET = ("scores", "tokens", "token_bonus")


def _seats(state: MahjonggState) -> int:
    return state.game.num_players


def _wallets(state: MahjonggState) -> int:
    return 1 if state.game.shared_pool else state.game.num_players


_SEAT = Int(0, lambda state: state.game.num_players - 1)
_COUNT = Int(0)
_TILE_SET = Int(0, lambda state: state.game.geometry.all_mask)

CORE = Schema(
    "mahjongg core",
    Field("faces", "faces",
          ListOf(Int(0, len(FACES) - 1), length=lambda state: state.game.geometry.size)),
    Field("present", "present", _TILE_SET),
    Field("face_down", "face_down", _TILE_SET),
    Field("player", "player", _SEAT),
    Field("bank", "bank", _COUNT),
    Field("capstone_by", "capstone_by",
          ListOf(Optional(_SEAT), length=lambda state: len(state.game.capstone_ids))),
    Field("vault_status", "vault_status", ListOf(
        OneOf((LOCKED, UNLOCKED, FORFEITED)), length=lambda state: len(state.game.vault_ids))),
    Field("vault_by", "vault_by",
          ListOf(Optional(_SEAT), length=lambda state: len(state.game.vault_ids))),
    Field("passes", "passes", Int(0, _seats)),
    # Time attack: the elapsed seconds at the last pair (quick pairs count from it).
    Field("last_pair_at", "last_pair_at",
          Int(0, lambda state: state.game.options["time_limit_seconds"])),
    Field("shift", "shift", Int(-1, lambda state: state.game.geometry.size - 1)),
    Field("sight", "sight", BOOL),
    Field("hint", "hint", BOOL),
    Field("last_move", "last_move", Optional(JSON_OBJECT)),
    Field("rng", "rng", RNG),
    Field("over", "over", BOOL),
    Field("end_reason", "end_reason", Optional(OneOf(modes.END_REASONS))),
    *(Field(name, name, ListOf(_COUNT, length=_seats)) for name in _PER_SEAT),
    *(Field(name, name, ListOf(_COUNT, length=_wallets)) for name in _PER_WALLET),
)
"""Everything undo restores; an undo snapshot is `CORE.dump(state)`."""


def _load_snapshot(raw: Any, state: MahjonggState) -> dict[str, Any]:
    """An undo snapshot, checked as a core (into a scratch state) and kept as saved."""
    scratch = MahjonggState.__new__(MahjonggState)
    scratch.game = state.game
    CORE.load_object(scratch, raw)
    return dict(raw)


def _upgrade(data: Any) -> Any:
    """A save from before the fields added since, given them: `last_pair_at` 0 (from
    before the Solar Barque track: the rules it was played under had no quick pairs)
    and `undo_kept` 0 per snapshot (from before `undo_keeps_peeks_paid`: no undo had
    kept tokens under that rule)."""
    if not isinstance(data, dict) or not isinstance(data.get("core"), dict):
        return data
    if "undo_kept" not in data and isinstance(data.get("undo"), list):
        data = dict(data, undo_kept=[0] * len(data["undo"]))
    if "last_pair_at" in data["core"]:
        return data
    upgraded = dict(data, core=dict(data["core"], last_pair_at=0))
    undo = data.get("undo")
    if isinstance(undo, list):
        upgraded["undo"] = [
            dict(snapshot, last_pair_at=0) if isinstance(snapshot, dict) else snapshot
            for snapshot in undo
        ]
    return upgraded


# A snapshot is never changed once taken: clones and saves share it (a save
# copies the list; deep copies made `to_json` twice as slow).
_SNAPSHOT = Custom(_load_snapshot)


class MahjonggState(SavedState, State):
    game: MahjonggGame

    __slots__ = (
        "game", "seed", "faces", "present", "face_down", "player", "bank", "capstone_by",
        "vault_status", "vault_by", "passes", "last_pair_at", "shift", "sight", "hint",
        "last_move", "rng", "over", "end_reason", *_PER_SEAT, *_PER_WALLET, "elapsed",
        "_history", "_undo", "_undo_kept",
        "tile_class", "_natural", "_free", "_legal", "_legal_set",
    )

    saved = Schema(
        "mahjongg state",
        Kept("game"),
        Field("seed", "seed", SEED),
        # What undo restores, saved as one object.
        Computed("core", CORE.dump, CORE.load_object),
        *CORE.kept(),
        Field("elapsed", "elapsed", Int(0, lambda state: state.game.options["time_limit_seconds"])),
        Field("history", "_history",
              ListOf(Int(0, lambda state: state.game.num_distinct_actions - 1))),
        Field("undo", "_undo", ListOf(_SNAPSHOT)),
        # One per snapshot: the favor tokens that undos taken since it kept spent
        # (`undo_keeps_peeks_paid`), which an undo to it keeps spent again.
        Field("undo_kept", "_undo_kept",
              ListOf(_COUNT, length=lambda state: len(state._undo))),
        # Caches (`_reset_caches`): each is replaced, never changed in place, so
        # clones share them; a loaded state rebuilds them.
        *(Kept(cache) for cache in ("tile_class", "_natural", "_free", "_legal", "_legal_set")),
    )

    def __init__(self, game: MahjonggGame, seed: int | str | None, faces: list[int]) -> None:
        """A fresh deal: `faces[i]` is the face of tile i."""
        self.game = game
        self.seed = seed
        layout = game.layout
        geometry = game.geometry
        players = game.num_players
        wallets = 1 if game.shared_pool else players
        start = game.options["start_tokens"]
        present = geometry.all_mask
        face_down = 0
        for tile in layout.face_down:
            if not geometry.is_uncovered(tile, present):
                face_down |= 1 << tile
        self.faces = list(faces)
        self.present = present
        self.face_down = face_down
        self.player = 0
        self.scores = [0] * wallets
        self.tokens = [start * (players if game.shared_pool else 1)] * wallets
        self.token_bonus = [0] * wallets
        self.bank = game.options["bank"] - start * players
        self.streaks = [0] * players
        self.doubling = [0] * players
        self.capstones = [0] * players
        self.vaults_won = [0] * players
        self.deity_pairs = [0] * players
        self.pairs = [0] * players
        self.capstone_by: list[int | None] = [None] * len(game.capstone_ids)
        self.vault_status = [LOCKED] * len(game.vault_ids)
        self.vault_by: list[int | None] = [None] * len(game.vault_ids)
        self.passes = 0
        self.last_pair_at = 0
        self.shift = -1
        self.sight = False
        self.hint = False  # the player asked for a hint this turn
        self.last_move: dict[str, Any] | None = None
        self.rng = Rng(0)
        self.over = False
        self.end_reason: str | None = None
        self.elapsed = 0
        self._history: list[int] = []
        self._undo: list[dict[str, Any]] = []
        self._undo_kept: list[int] = []
        self._reset_caches()
        for k, tile in enumerate(game.vault_ids):
            # A vault already exposed at the deal is open for nobody's credit.
            if geometry.is_exposed(tile, present):
                self.vault_status[k] = UNLOCKED
        # A deal can be locked out from the start (no pair, no token).
        self._check_end()

    # -- caches ----------------------------------------------------------------

    def _reset_caches(self) -> None:
        classes = self.game.classes
        self.tile_class = [classes[face] for face in self.faces]
        self._natural: int | None = None  # the free tiles, kept up to date on removals
        self._free: int | None = None
        self._legal: list[int] | None = None
        self._legal_set: frozenset[int] | None = None

    def _changed(self) -> None:
        self._free = None
        self._legal = None
        self._legal_set = None

    def free_mask(self) -> int:
        """Tiles that may be matched now: the free ones and the shifted one."""
        if self._free is None:
            if self._natural is None:
                self._natural = favors.free_mask(self.game.geometry, self.present)
            free = self._natural
            if self.shift >= 0 and self.present >> self.shift & 1:
                free |= 1 << self.shift
            self._free = free
        return self._free

    def naturally_free(self) -> int:
        """Tiles free under the free-tile rule alone."""
        if self._natural is None:
            self._natural = favors.free_mask(self.game.geometry, self.present)
        return self._natural

    def valid_pairs(self) -> list[tuple[int, int]]:
        return favors.valid_pairs(self.free_mask(), self.tile_class)

    def wallet(self, player: int) -> int:
        return 0 if self.game.shared_pool else player

    # -- the API -----------------------------------------------------------------

    @property
    def current_player(self) -> int:
        return TERMINAL if self.over else self.player

    def is_terminal(self) -> bool:
        return self.over

    def history(self) -> list[int]:
        return list(self._history)

    def legal_actions(self) -> list[int]:
        if self._legal is None:
            self._legal = self._compute_legal()
            self._legal_set = frozenset(self._legal)
        return list(self._legal)

    def _compute_legal(self) -> list[int]:
        if self.over:
            return []
        game = self.game
        space = game.actions
        free = self.free_mask()
        pairs = favors.valid_pairs(free, self.tile_class)
        legal = [space.match(a, b) for a, b in pairs]
        tokens = self.tokens[self.wallet(self.player)]
        options = game.options
        if self.shift < 0 and tokens >= options["shift_cost"]:
            legal += [space.shift(t) for t in tiles_in(favors.shift_targets(self.present, free))]
        if space.reveal and tokens >= options["reveal_cost"]:
            legal += [space.reveal_tile(t) for t in tiles_in(self.present & self.face_down)]
        simple = space.simple
        legal.append(simple[act.PASS])
        if not self.sight and tokens >= options["sight_cost"]:
            legal.append(simple[act.SIGHT])
        if not pairs and self.present and tokens >= options["reshuffle_cost"]:
            legal.append(simple[act.RESHUFFLE])
        if game.solo:
            if self._undo and self.undo_keeps_favors_paid():
                legal.append(simple[act.UNDO])
            if pairs and not self.hint:
                legal.append(simple[act.HINT])
        if game.can_finish and self.present and self.naturally_free() == self.present:
            legal.append(simple[act.FINISH])
        if space.clock_limit is not None:
            legal += [space.clock(s) for s in range(self.elapsed + 1, space.clock_limit + 1)]
        legal.sort()
        return legal

    def unavailable(self) -> dict[str, Words]:
        """Why each favor button the player to move has is off now: hint, undo, Ra Sight,
        Sandstorm Reshuffle and finish by action string, Anubis Shift and Tile Reveal by
        kind (`shift`, `reveal`: each of their moves names a tile)."""
        if self.over:
            return {}
        game = self.game
        kinds = [act.SIGHT, act.RESHUFFLE]
        if game.solo:
            kinds += [act.HINT, act.UNDO]
        if game.can_finish:
            kinds.append(act.FINISH)
        space = game.actions
        legal_kinds = {space.kind(action) for action in self.legal_actions()}
        reasons = {kind: why_illegal(self, space.simple[kind]) for kind in kinds
                   if kind not in legal_kinds}
        # The tile favors: by kind, since each of their moves names a tile.
        for kind in ("shift", "reveal") if space.reveal else ("shift",):
            if kind not in legal_kinds:
                reasons[kind] = why_no_tile_favor(self, kind)
        return reasons

    def action_to_string(self, action: int) -> str:
        return self.game.actions.to_string(action)

    def string_to_action(self, text: str) -> int:
        return self.game.actions.parse(text)

    def apply_action(self, action: int) -> None:
        self.legal_actions()
        assert self._legal_set is not None
        if action not in self._legal_set:
            raise self.illegal(action, self._why_illegal(action))
        space = self.game.actions
        kind = space.kind(action)
        player = self.player
        if kind == "clock":
            self._apply_clock(action - space.clock_base)
        elif kind == act.HINT:
            self._apply_hint(player)
        elif kind == act.UNDO:
            self._apply_undo(player)
        else:
            if self.game.solo and kind != act.PASS:
                self._undo.append(CORE.dump(self))
                self._undo_kept = [*self._undo_kept, 0]
            if kind == "match":
                a, b = space.pairs[action]
                gained = self._remove_pair(a, b, player)
                self.last_move = {"player": player, "action": f"match {a} {b}", **gained}
                self._end_turn(matched=True)
            elif kind == "shift":
                self._apply_shift(player, action - space.shift_base)
            elif kind == act.PASS:
                self.last_move = {"player": player, "action": act.PASS}
                self.passes += 1
                self._end_turn(matched=False)
            elif kind == act.SIGHT:
                self._spend(player, self.game.options["sight_cost"])
                self.sight = True
                self.last_move = {"player": player, "action": act.SIGHT}
            elif kind == act.RESHUFFLE:
                self._apply_reshuffle(player)
            elif kind == act.FINISH:
                self._apply_finish(player)
            elif kind == "reveal":
                self._apply_reveal(player, action - space.reveal_base)
        self._history.append(action)
        self._changed()
        if not self.over:
            self._check_end()
        if self.game.turn_clock and not self.over:
            # Without a real clock every move takes the same time (`barque`).
            limit = self.game.options["time_limit_seconds"]
            self._apply_clock(min(limit, self.elapsed + self.game.options["turn_seconds"]))

    def _why_illegal(self, action: int) -> Words:
        return why_illegal(self, action)

    # -- moves -------------------------------------------------------------------

    def _remove_pair(self, a: int, b: int, player: int) -> dict[str, Any]:
        """Remove tiles a and b for `player`; returns what the pair scored."""
        game = self.game
        options = game.options
        rules = game.score_rules
        geometry = game.geometry
        positions = geometry.positions
        face = FACES[self.faces[a]]
        doubled = self.doubling[player] > 0
        if doubled:
            self.doubling[player] -= 1
        self.streaks[player] += 1
        capstones_removed = 0
        for k, tile in enumerate(game.capstone_ids):
            if tile in (a, b):
                self.capstone_by[k] = player
                capstones_removed += 1
        gained = scoring.score_pair(
            face.points,
            positions[a][2],
            positions[b][2],
            doubled=doubled,
            streak=self.streaks[player],
            capstones_removed=capstones_removed,
            rules=rules,
        )
        if capstones_removed:
            self.capstones[player] += capstones_removed
            self.doubling[player] = options["capstone_double_pairs"]
        if face.group == "deity":
            self.deity_pairs[player] += 1
        self.pairs[player] += 1
        wallet = self.wallet(player)
        self.scores[wallet] += gained.total
        before = self.present
        present = before & ~((1 << a) | (1 << b))
        self.present = present
        speed = self._speed_bonuses(before, present)
        self.scores[wallet] += speed.get("speed_bonus", 0) + speed.get("layer_bonus", 0)
        settled = self._settle(a, b)
        if self._natural is not None:
            # A removal only frees tiles: the ones it lay on and its row neighbours.
            natural = self._natural & present
            for tile in game.neighbours[a] + game.neighbours[b]:
                if present >> tile & 1 and geometry.is_free(tile, present):
                    natural |= 1 << tile
            self._natural = natural
        if self.face_down:
            for tile in geometry.below[a] + geometry.below[b]:
                if self.face_down >> tile & 1 and geometry.is_uncovered(tile, present):
                    self.face_down &= ~(1 << tile)
        vaults: list[int] = []
        for k, tile in enumerate(game.vault_ids):
            if self.vault_status[k] != LOCKED:
                continue
            if not present >> tile & 1:
                self.vault_status[k] = FORFEITED
            elif geometry.is_exposed(tile, present):
                self.vault_status[k] = UNLOCKED
                self.vault_by[k] = player
                self.vaults_won[player] += 1
                self.scores[wallet] += rules.vault_bonus
                gift = min(options["vault_tokens"], self.bank)
                self.bank -= gift
                self.tokens[wallet] += gift
                vaults.append(tile)
        self._changed()
        extra = speed.get("speed_bonus", 0) + speed.get("layer_bonus", 0)
        return {
            "pair_points": gained.base,
            "doubled": doubled,
            "streak_bonus": gained.streak,
            "capstone_bonus": gained.capstones,
            "vaults_unlocked": vaults,
            "vault_bonus": rules.vault_bonus * len(vaults),
            **speed,
            **({"settled": settled} if settled else {}),
            "points": gained.total + rules.vault_bonus * len(vaults) + extra,
        }

    def _speed_bonuses(self, before: int, after: int) -> dict[str, Any]:
        """Time attack's quick-pair and layer bonuses for a pair removed now
        (`barque`); nothing in the other modes."""
        track = self.game.track
        if track is None:
            return {}
        elapsed = self.elapsed
        if not (track.quick_bonus or track.layer_bonus):
            # No bonuses (the rule of games saved before the track): nothing to score,
            # but the time of this pair is kept, so that the view's `quick_until` is
            # this pair's, not the start's for the rest of the game.
            self.last_pair_at = elapsed
            return {}
        layers = barque.layers_emptied(self.game.layer_masks, before, after)
        bonuses = {
            "speed_bonus": track.quick_pair_bonus(elapsed, self.last_pair_at),
            "layer_bonus": track.layers_bonus(elapsed, len(layers)),
            "layers_emptied": layers,
        }
        self.last_pair_at = elapsed
        return bonuses

    def _settle(self, a: int, b: int) -> list[int]:
        """Structural shifts (`settling`): turn face up the face-down tiles beneath a
        removed capstone; returns them."""
        shown = 0
        for tile, zone in zip(self.game.capstone_ids, self.game.settle_zones, strict=True):
            if tile in (a, b):
                shown |= zone & self.face_down & self.present
        self.face_down &= ~shown
        return tiles_in(shown)

    def _end_turn(self, matched: bool) -> None:
        if matched:
            self.passes = 0
        self.shift = -1
        self.sight = False
        self.hint = False
        scores = [self.scores[self.wallet(seat)] for seat in range(self.game.num_players)]
        self.player = modes.next_player(self.game.options["turn_order"], self.player, scores,
                                        matched)
        self._changed()

    def _spend(self, player: int, cost: int) -> None:
        self.tokens[self.wallet(player)] -= cost
        self.bank += cost
        self.streaks[player] = 0

    def _apply_shift(self, player: int, tile: int) -> None:
        self._spend(player, self.game.options["shift_cost"])
        self.shift = tile
        self.face_down &= ~(1 << tile)
        self.last_move = {"player": player, "action": f"shift {tile}"}

    def _apply_reveal(self, player: int, tile: int) -> None:
        self._spend(player, self.game.options["reveal_cost"])
        self.face_down &= ~(1 << tile)
        self.last_move = {"player": player, "action": f"reveal {tile}"}

    def _apply_reshuffle(self, player: int) -> None:
        self._spend(player, self.game.options["reshuffle_cost"])
        locked = 0
        for k, tile in enumerate(self.game.vault_ids):
            if self.vault_status[k] == LOCKED:
                locked |= 1 << tile
        self.faces = self.game.advice.reshuffle(self.faces, self.present, self.rng, locked)
        self._reset_caches()
        self.passes = 0
        self.hint = False
        self.last_move = {"player": player, "action": act.RESHUFFLE}

    def _apply_finish(self, player: int) -> None:
        positions = self.game.geometry.positions
        vault_tiles = set(self.game.vault_ids)
        by_class: dict[int, list[int]] = {}
        for tile in tiles_in(self.present):
            by_class.setdefault(self.tile_class[tile], []).append(tile)
        # Pair high tiles with low ones (the most elevation points any pairing
        # gets), and take pairs holding a vault last so that its neighbours go first.
        pairs: list[tuple[int, int]] = []
        for group in by_class.values():
            group.sort(key=lambda t: (-positions[t][2], t))
            half = len(group) // 2
            for high, low in zip(group[:half], reversed(group[half:]), strict=True):
                pairs.append((min(high, low), max(high, low)))
        pairs.sort(key=lambda p: (p[0] in vault_tiles or p[1] in vault_tiles, p))
        if self.game.options["finish_saves_vaults"]:
            locked = {tile for tile, status in zip(self.game.vault_ids, self.vault_status,
                                                   strict=True) if status == LOCKED}
            pairs = finishing.vault_saving_order(pairs, locked, self.present,
                                                 self.game.geometry)
        total = 0
        for a, b in pairs:
            total += self._remove_pair(a, b, player)["points"]
        self.last_move = {
            "player": player,
            "action": act.FINISH,
            "pairs": [list(p) for p in pairs],
            "points": total,
        }
        self._end_turn(matched=True)

    def _apply_hint(self, player: int) -> None:
        # The pair itself is worked out when a view shows it, so that asking
        # stays cheap for agents that search through hints.
        self.hint = True
        self.streaks[player] = 0
        self.last_move = {"player": player, "action": act.HINT}

    def _apply_undo(self, player: int) -> None:
        # A face once shown stays shown: undoing a shift (or a match that uncovered
        # a tile) must not turn it back down, or shift-then-undo would show every
        # face-down tile for free.
        still_hidden = self.face_down
        spent, shown = self._tokens_kept_by_undo()
        kept = self._undo_kept[:-1]
        if kept and shown:
            # An undo to an earlier snapshot takes this one back too: it keeps them
            # again (`undo_keeps_peeks_paid`; the other rules need no count).
            kept[-1] += spent
        CORE.load_object(self, self._undo.pop())
        self._undo_kept = kept
        if spent:
            wallet = self.wallet(player)
            self.tokens = [t - spent if w == wallet else t for w, t in enumerate(self.tokens)]
            self.bank += spent
        self._reset_caches()
        self.face_down &= still_hidden
        self.streaks[player] = 0
        self.last_move = {"player": player, "action": act.UNDO}
        if spent:
            self.last_move["tokens_kept_spent"] = spent
            if shown:
                self.last_move["face_down_shown"] = True

    def undo_keeps_favors_paid(self) -> bool:
        """Whether an undo can keep the favors since its snapshot paid: the tokens it
        restores cover those that stay spent. Not when a favor was paid with a token
        that a move since earned (a vault's): undoing that move takes the token back,
        and the favor (a peek under a tile, say) would have cost nothing."""
        if not self._undo:
            return True
        spent = self._tokens_kept_by_undo()[0]
        return not spent or self._undo[-1]["tokens"][self.wallet(self.player)] >= spent

    def _tokens_kept_by_undo(self) -> tuple[int, bool]:
        """The favor tokens an undo now keeps spent, and whether it keeps them because
        moves taken back showed something of a face-down tile (the rule of
        `undo_keeps_peeks_paid`).

        - `undo_refunds_favors` off: every favor since the newest snapshot, undone
          ones included (match, favor, undo, undo refunds nothing either).
        - on, `undo_keeps_peeks_paid` off: none (the exact earlier state).
        - both on: the favor that took the snapshot, when the moves since it (undone
          ones included) turned a face-down tile face up or shuffled faces with
          face-down tiles on the board; plus what the undos since the snapshot kept
          spent. Otherwise none: the undo restores the tokens exactly.
        """
        options = self.game.options
        if not options["undo_refunds_favors"]:
            return self._favor_tokens_spent_since_snapshot(), False
        if not options["undo_keeps_peeks_paid"]:
            return 0, False
        cost, reshuffled = self._snapshot_favor()
        shown = bool(self._undo[-1]["face_down"] & ~self.face_down)
        # Face-down tiles now were face down at the reshuffle too (faces only turn up).
        shuffled_hidden = reshuffled and bool(self.face_down)
        spent = self._undo_kept[-1] + (cost if shown or shuffled_hidden else 0)
        return spent, spent > 0

    def _favor_costs(self) -> dict[str, int]:
        options = self.game.options
        return {act.SIGHT: options["sight_cost"], "shift": options["shift_cost"],
                "reveal": options["reveal_cost"], act.RESHUFFLE: options["reshuffle_cost"]}

    def _snapshot_favor(self) -> tuple[int, bool]:
        """What the move that took the newest snapshot cost (nothing unless a favor:
        every later move that took one has been undone), and whether a Sandstorm
        Reshuffle was played since that snapshot, undone or not."""
        space = self.game.actions
        undone = 0
        reshuffled = False
        for action in reversed(self._history):
            kind = space.kind(action)
            reshuffled = reshuffled or kind == act.RESHUFFLE
            if kind == act.UNDO:
                undone += 1
            elif kind not in ("clock", act.HINT, act.PASS):
                if not undone:
                    return self._favor_costs().get(kind, 0), reshuffled
                undone -= 1
        return 0, False  # no snapshot on the stack

    def _favor_tokens_spent_since_snapshot(self) -> int:
        """Tokens paid for favors since the newest undo snapshot, undone favors included."""
        space = self.game.actions
        costs = self._favor_costs()
        # Back from the last action to the one that took the newest snapshot still on
        # the stack, each undo on the way matching one snapshot taken before it (as
        # brackets match): only that tail is read, and `legal_actions` asks this often.
        spent = 0
        undone = 0
        for action in reversed(self._history):
            kind = space.kind(action)
            spent += costs.get(kind, 0)
            if kind == act.UNDO:
                undone += 1
            elif kind not in ("clock", act.HINT, act.PASS):
                if not undone:
                    return spent
                undone -= 1
        return 0  # no snapshot on the stack

    def _apply_clock(self, seconds: int) -> None:
        self.elapsed = seconds
        if seconds >= self.game.options["time_limit_seconds"]:
            self._finish_game(modes.TIME_UP)

    def _check_end(self) -> None:
        if not self.present:
            self._finish_game(modes.CLEARED)
        elif self.passes >= self.game.num_players:
            self._finish_game(modes.ALL_PASSED)
        elif not any(self.tokens) and not favors.has_valid_pair(
            self.free_mask(), self.tile_class
        ):
            self._finish_game(modes.LOCKOUT)

    def _finish_game(self, reason: str) -> None:
        self.over = True
        self.end_reason = reason
        self.shift = -1
        self.sight = False
        self.hint = False
        rules = self.game.score_rules
        for wallet, tokens in enumerate(self.tokens):
            self.token_bonus[wallet] = scoring.token_bonus(tokens, rules)
            self.scores[wallet] += self.token_bonus[wallet]
        self._changed()

    # -- results -------------------------------------------------------------------

    def time_left(self) -> int:
        return max(0, self.game.options["time_limit_seconds"] - self.elapsed)

    def _standings(self) -> list[scoring.Standing]:
        return [
            scoring.Standing(
                self.scores[p], self.capstones[p], self.vaults_won[p], self.deity_pairs[p]
            )
            for p in range(self.game.num_players)
        ]

    def winners(self) -> list[int]:
        game = self.game
        if game.shared_pool:
            return list(range(game.num_players)) if self.team_won() else []
        if game.num_players == 1:
            return [0] if not self.present else []
        return scoring.winners(self._standings())

    def standings(self) -> list[Any]:
        # A Standard Expedition's tie-breaks order every place, not only the first.
        if not self.over or self.game.shared_pool or self.game.num_players == 1:
            return super().standings()
        return [standing.key() for standing in self._standings()]

    def team_won(self) -> bool:
        return modes.coop_won(self.vault_status, cleared=not self.present)

    def returns(self) -> list[float]:
        game = self.game
        if not self.over:
            return [0.0] * game.num_players
        return modes.returns(
            game.mode,
            game.num_players,
            cleared=not self.present,
            winners=self.winners(),
            team_won=self.team_won(),
        )

    # -- views ------------------------------------------------------------------

    def view(self, player: int | None) -> dict[str, Any]:
        return build_view(self, player)

    def result(self) -> dict[str, Any]:
        return build_result(self)

    def outcome(self) -> Outcome | None:
        return build_outcome(self)

    # -- saving, copying, hidden information -----------------------------------

    @classmethod
    def from_dict(cls, game: MahjonggGame, data: dict[str, Any]) -> MahjonggState:
        """The state `_to_dict` saved; raises RecordError naming a malformed field."""
        state = cls.__new__(cls)
        state.game = game
        cls.saved.load(state, _upgrade(data))
        state._reset_caches()
        return state

    def resample_hidden(self, player: int | None, rng: RandomSource) -> MahjonggState:
        """Shuffle the faces of the face-down tiles among themselves and reseed.

        The undo snapshots get the same exchange where they still hold these
        faces on these tiles (no reshuffle since), so an undo tells nothing more,
        and fresh generators.
        """
        copy = self.clone()
        hidden = tiles_in(self.face_down & self.present)
        old = [self.faces[t] for t in hidden]
        new = list(old)
        rng.shuffle(new)
        for tile, face in zip(hidden, new, strict=True):
            copy.faces[tile] = face
        copy._reset_caches()
        copy.rng = Rng(rng.randrange(1 << 62) * 4 + rng.randrange(4))
        undo = []
        for snapshot in copy._undo:
            # The chance to come after an undo is resampled too.
            snapshot = dict(snapshot, rng=rng.randrange(1 << 62))
            faces = snapshot["faces"]
            if hidden and [faces[t] for t in hidden] == old:
                snapshot["faces"] = list(faces)
                for tile, face in zip(hidden, new, strict=True):
                    snapshot["faces"][tile] = face
            undo.append(snapshot)
        copy._undo = undo
        return copy

