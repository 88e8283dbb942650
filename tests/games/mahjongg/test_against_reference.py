"""Differential test: the engine against the plain reference model of the rules
(reference_model.py), over many seeded random games on several layouts (the
blueprints, KMahjongg files, a Layout Book monument) and every mode, with
default and non-default options. At every step the legal actions (their strings
and their numbers), the board, faces shown, scores, tokens, bank, streaks,
doublings, capstones, vaults, passes, turn, end and returns must agree.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import pyramids
from pyramids.core.errors import IllegalActionError
from pyramids.games.mahjongg.game import MahjonggGame
from pyramids.games.mahjongg.layout import Layout
from tests.games.mahjongg.conftest import MINI_FACES, mini_game
from tests.games.mahjongg.reference_model import SIMPLE, Model, match_key

KMAHJONGG = Path("/work/shared/data/layouts/kmahjongg")
KM_FILES = sorted(KMAHJONGG.glob("*.layout")) if KMAHJONGG.is_dir() else []


def action_number(model: Model, text: str, clock_limit: int | None) -> int:
    """The documented numbering (actions.py docstring, rules page 'Actions')."""
    n = len(model.pos)
    words = text.split()
    pairs = n * (n - 1) // 2
    if words[0] == "match":
        a, b = int(words[1]), int(words[2])
        return sum(n - 1 - k for k in range(a)) + (b - a - 1)
    if words[0] == "shift":
        return pairs + int(words[1])
    if words[0] in SIMPLE:
        return pairs + n + SIMPLE.index(words[0])
    clock_base = pairs + n + len(SIMPLE)
    if words[0] == "clock":
        return clock_base + int(words[1])
    return clock_base + (clock_limit + 1 if clock_limit is not None else 0) + int(words[1])


def model_of(game: Any, state: Any) -> Model:
    layout = game.layout
    return Model(pos=[tuple(p) for p in layout.positions], faces=list(state.faces),
                 capstones=sorted(layout.capstones), vaults=sorted(layout.vaults),
                 marked_down=set(layout.face_down), opts=dict(game.options),
                 players=game.num_players)


def compare(state: Any, model: Model, where: str) -> None:
    view = state.view(None)
    tiles = {t["id"]: t for t in view["tiles"]}
    assert set(tiles) == model.present, where
    for t, tile in tiles.items():
        shown = None if t in model.down else model.faces[t]
        assert tile["face_index"] == shown, (where, t)
        assert tile["free"] == model.usable(t), (where, t)  # a shifted tile shows free
    seats = model.players
    scores = [model.score[0]] * seats if model.coop else model.score
    assert view["scores"] == scores, where
    assert view["tokens"] == (model.tokens[0] if model.coop else model.tokens), where
    assert view["bank"] == model.bank, where
    assert view["streaks"] == model.streak, where
    assert view["doubling"] == model.doubling, where
    assert [(c["id"], c["removed_by"], c["on_board"]) for c in view["capstones"]] == [
        (c, model.cap_by[c], c in model.present) for c in model.capstones], where
    assert [(v["id"], v["state"], v["by"]) for v in view["vaults"]] == [
        (v, model.vault_state[v], model.vault_by[v]) for v in model.vaults], where
    assert view["passes"] == model.passes, where
    assert view["shifted"] == model.shift, where
    assert state.current_player == model.player, where
    assert state.is_terminal() == model.over, where
    assert state.returns() == model.returns(), where
    assert view["tiles_left"] == len(model.present), where
    if model.timed:
        o = model.opts
        assert view["elapsed"] == model.elapsed, where
        assert view["time_left"] == o["time_limit_seconds"] - model.elapsed, where
        spaces = -(-o["time_limit_seconds"] // o["barque_space_seconds"])
        space = min(model.elapsed // o["barque_space_seconds"], spaces)
        if model.elapsed >= o["time_limit_seconds"]:
            space = spaces  # sunset: the time is up
        barque = view["barque"]
        assert (barque["space"], barque["spaces"], barque["spaces_left"]) == (
            space, spaces, spaces - space), where
        assert barque["layer_bonus"] == o["speed_layer_bonus"] * (spaces - space), where
        # With the bonuses 0 too: the time of the last pair is kept (it was not, so
        # the view said the start's quick window for the whole game).
        assert barque["quick_until"] == model.last_pair_at + o["speed_pair_seconds"], where
    assert not {"sight_pairs", "hint"} & set(view), where  # the asker's only
    for seat in range(model.players):  # no player sees a face-down face either
        mine = state.view(seat)
        assert all(t["face"] is t["face_index"] is t["group"] is t["short"] is None
                   for t in mine["tiles"] if t["id"] in model.down), where
        if seat != model.player or not model.sight:
            assert not mine.get("sight_pairs"), where
        if seat != model.player or not model.hint:
            assert "hint" not in mine, where
    if model.down and "unsolvable" in view:  # the warning tells nothing about them
        assert view["unsolvable"] is False, where
    small = not model.down and not model.over and len(model.present) <= 12
    if small and "unsolvable" in view:  # within the solver's budget: exact
        assert view["unsolvable"] is (not model.can_clear()), where
    if small and model.hint:  # a pair that keeps the board clearable, if one does
        hint = tuple(state.view(model.player)["hint"])
        assert model.can_clear(hint) or not model.can_clear(), (where, hint)
    if model.hint and not model.over:
        assert tuple(state.view(model.player)["hint"]) in model.valid_pairs(), where
    if model.sight and not model.over:
        mine = state.view(model.player)
        assert sorted(map(tuple, mine["sight_pairs"])) == model.valid_pairs(), where
    if model.over:
        outcome = view["outcome"]
        assert (outcome["reason"], outcome["scores"]) == (model.reason, scores), where
        figures = {"tiles_left": len(model.present), "cleared": float(not model.present)}
        if model.timed:
            figures["time_left"] = model.opts["time_limit_seconds"] - model.elapsed
        assert outcome["figures"] == figures, where
        result = view["result"]
        assert result["reason"] == model.reason, where
        assert result["token_bonus"] == model.token_bonus, where
        if model.coop:
            assert result["team_won"] == model.team_won(), where
        elif not model.solo:
            assert result["winners"] == model.winners(), where
        if model.timed:
            left = model.opts["time_limit_seconds"] - model.elapsed
            assert result["time_score"] == left + model.opts[
                "time_token_bonus_seconds"] * model.tokens[0], where


def check_resample(state: Any, model: Model, rng: random.Random, where: str) -> None:
    """A search agent's guess exchanges the face-down faces among themselves only."""
    before = state.to_json()
    guess = state.resample_hidden(model.player, random.Random(rng.random()))
    assert state.to_json() == before, where
    down = sorted(model.down)
    assert sorted(guess.faces[t] for t in down) == sorted(model.faces[t] for t in down), where
    assert all(guess.faces[t] == model.faces[t] for t in model.present - model.down), where
    compare(guess, model, f"{where} (resampled)")




WEIGHTS = {"match": 60, "shift": 4, "sight": 3, "reveal": 6, "reshuffle": 20, "hint": 2,
           "undo": 3, "finish": 30, "pass": 0.3, "clock": 3}


def play(options: dict[str, Any], seed: int, layout_path: str | None = None,
         game: Any = None, faces: list[int] | None = None, script: tuple[str, ...] = (),
         weights: dict[str, float] = WEIGHTS) -> int:
    if layout_path:
        options = {**options, "layout": layout_path}
    if game is None:
        game = pyramids.load("mahjongg", **options)
    state = game.new_initial_state(seed) if faces is None else game.state_with_faces(faces, seed)
    model = model_of(game, state)
    counts = Counter(match_key(f, model.opts["pantheon_pairs"]) for f in model.faces)
    assert all(n % 2 == 0 for n in counts.values()), counts  # every match class pairs up
    clock_limit = (game.options["time_limit_seconds"]
                   if model.timed and not model.turn_clock else None)
    rng = random.Random(seed)
    steps = 0
    compare(state, model, f"{options} seed {seed}: deal")
    while not state.is_terminal():
        legal = state.legal_actions()
        strings = {state.action_to_string(a): a for a in legal}
        where = f"{options} seed {seed} step {steps}"
        assert set(strings) == model.legal(), (where, set(strings) ^ model.legal())
        for text, number in strings.items():
            assert action_number(model, text, clock_limit) == number, (where, text)
        kinds: dict[str, list[str]] = {}
        for text in strings:
            kinds.setdefault(text.split()[0], []).append(text)
        kind = rng.choices(list(kinds), [weights[k] for k in kinds])[0]
        text = rng.choice(sorted(kinds[kind]))
        if kind == "clock":  # a few seconds pass
            text = f"clock {min(model.elapsed + rng.randint(1, 40), clock_limit or 0)}"
        if steps < len(script):
            text = script[steps]
            kind = text.split()[0]
        wrong = rng.randrange(game.num_distinct_actions + 2) - 1
        if wrong not in strings.values():  # refused, and nothing changes
            with pytest.raises(IllegalActionError):
                state.apply_action(wrong)
            compare(state, model, f"{where} after refusing {wrong}")
        if steps % 7 == 3:  # a saved game goes on as the game itself
            state = game.state_from_json(state.to_json())
        state.apply_action(strings[text])
        last = state.view(None)["last_move"]
        model.apply(text, engine_faces=list(state.faces),
                    finish_pairs=last.get("pairs") if text == "finish" else None)
        compare(state, model, f"{where} after {text}")
        if kind == "match":  # the breakdown a player reads
            shown = {**model.last, **(model.speed if model.timed and (
                game.options["speed_pair_bonus"] or game.options["speed_layer_bonus"]) else {})}
            assert {k: last.get(k) for k in shown} == shown, (where, last)
        if text == "hint" and model.down:  # tells nothing about the hidden faces
            assert tuple(state.view(model.player)["hint"]) == model.valid_pairs()[0], where
        if steps % 5 == 2 and model.down and not model.over:
            check_resample(state, model, rng, where)
        steps += 1
    return steps


SMALL = "giza-step-ramp"
CASES = [
    ({"layout": SMALL}, range(4)),
    ({"layout": SMALL, "deal": "random", "start_tokens": 0}, range(3)),
    ({"layout": SMALL, "deal": "random", "reshuffle_cost": 1, "bank": 5, "start_tokens": 2,
      "undo_refunds_favors": True}, range(3)),
    ({"layout": SMALL, "start_tokens": 0, "vault_tokens": 2, "bank": 3, "sight_cost": 2},
     range(3)),
    ({"layout": SMALL, "deal": "random", "start_tokens": 3, "reshuffle_cost": 2}, range(3)),
    ({"layout": SMALL, "players": 3, "turn_order": "behind"}, range(2)),
    ({"layout": "sphinx-guard", "players": 2, "pantheon_pairs": False, "capstone_double_pairs": 1,
      "streak_cap": 2, "streak_step": 7, "vault_tokens": 3}, range(2)),
    ({"layout": "pharaohs-tomb", "players": 4, "deal": "random", "start_tokens": 1}, range(2)),
    ({"layout": "great-zenith"}, range(2)),
    ({"layout": "great-zenith", "structural_shifts": False, "reveal_favor": False,
      "shift_cost": 0, "sight_cost": 2}, range(1)),
    ({"layout": "great-zenith", "mode": "time-attack", "clock": "turns"}, range(2)),
    ({"layout": SMALL, "mode": "time-attack", "clock": "turns", "time_limit_seconds": 250,
      "turn_seconds": 7, "barque_space_seconds": 45, "speed_pair_seconds": 3}, range(2)),
    ({"layout": SMALL, "mode": "time-attack", "time_limit_seconds": 400}, range(2)),
    ({"mode": "coop", "players": 2}, range(2)),
    ({"layout": SMALL, "mode": "coop", "players": 3, "deal": "random", "settle_reach": 0},
     range(2)),
    ({"layout": "turtle", "players": 2}, range(1)),
    ({"layout": "step-pyramid-of-saqqara"}, range(2)),
]


@pytest.mark.parametrize(("options", "seeds"), CASES, ids=[str(c[0]) for c in CASES])
def test_engine_agrees_with_the_reference_model(options: dict[str, Any], seeds: range) -> None:
    for seed in seeds:
        assert play(dict(options), seed) > 0


def kmahjongg_positions(text: str) -> list[tuple[int, int, int]]:
    """The tiles of a KMahjongg `.layout` (read as its FORMAT.md says): each `1` cell."""
    lines = text.splitlines()
    size = {"w": 32, "h": 16, "d": 5}
    board = ""
    for line in lines[1:]:
        if line.startswith("#"):
            continue
        if line[:1] in size and line[1:].strip().isdigit():
            size[line[0]] = int(line[1:])
        else:
            board += line.strip()
    w, h = size["w"], size["h"]
    assert len(board) == w * h * size["d"]
    return sorted((i % w, i // w % h, i // (w * h)) for i, c in enumerate(board) if c == "1")


@pytest.mark.skipif(not KM_FILES, reason="the KMahjongg layouts are not on this machine")
@pytest.mark.parametrize("path", KM_FILES, ids=[p.name for p in KM_FILES])
def test_kmahjongg_files_agree_with_the_reference_model(path: Path) -> None:
    layout = pyramids.load("mahjongg", layout=str(path)).layout
    assert sorted(layout.positions) == kmahjongg_positions(path.read_text())
    top = max(z for _, _, z in layout.positions)
    assert layout.capstones == {t for t, p in enumerate(layout.positions) if p[2] == top}
    assert not layout.vaults and not layout.face_down  # a plain layout
    for seed, options in enumerate(({}, {"players": 2, "deal": "random"},
                                     {"mode": "coop", "players": 3})):
        play(dict(options), seed, str(path))


def random_options(rng: random.Random) -> dict[str, Any]:
    """A mix of non-default options on the small blueprints, one draw per game."""
    mode = rng.choice(["standard", "standard", "time-attack", "coop"])
    players = 1 if mode == "time-attack" else rng.randint(2 if mode == "coop" else 1, 4)
    start = rng.randint(0, 3)
    options: dict[str, Any] = {
        "layout": rng.choice([SMALL, SMALL, "great-zenith", "step-pyramid-of-saqqara"]),
        "mode": mode, "players": players, "deal": rng.choice(["solvable", "random"]),
        "pantheon_pairs": rng.random() < .5, "start_tokens": start,
        "bank": players * start + rng.randint(0, 4),
        "capstone_bonus": rng.choice([0, 1000, 37]),
        "capstone_double_pairs": rng.randint(0, 4), "vault_bonus": rng.choice([0, 750, 11]),
        "vault_tokens": rng.randint(0, 3), "token_end_bonus": rng.choice([0, 200, 3]),
        "streak_step": rng.choice([0, 20, 9]), "streak_cap": rng.randint(0, 12),
        "sight_cost": rng.randint(0, 2), "shift_cost": rng.randint(0, 2),
        "reshuffle_cost": rng.randint(1, 3), "reveal_favor": rng.random() < .7,
        "reveal_cost": rng.randint(1, 2), "structural_shifts": rng.random() < .7,
        "settle_reach": rng.randint(0, 2), "undo_refunds_favors": rng.random() < .5,
        "undo_keeps_peeks_paid": rng.random() < .7,
        "finish_saves_vaults": rng.random() < .8,
        "warn_unsolvable": rng.random() < .5,
    }
    if mode == "standard":
        options["turn_order"] = rng.choice(["round", "behind"])
    if mode == "time-attack":
        options.update(clock=rng.choice(["real", "turns"]),
                       time_limit_seconds=rng.randint(60, 900),
                       turn_seconds=rng.randint(1, 15),
                       time_token_bonus_seconds=rng.randint(0, 40),
                       barque_space_seconds=rng.randint(10, 90),
                       speed_pair_seconds=rng.randint(0, 20),
                       speed_pair_bonus=rng.choice([0, 50, 7]),
                       speed_layer_bonus=rng.choice([0, 50, 13]))
    return options


@pytest.mark.parametrize("seed", range(60))
def test_random_option_mixes_agree_with_the_reference_model(seed: int) -> None:
    play(random_options(random.Random(seed)), seed)


def random_layout(rng: random.Random) -> Layout:
    """A small random monument: 6 to 24 tiles on up to 4 layers, touching at every side,
    with random capstones, vaults and face-down tiles."""
    positions: list[tuple[int, int, int]] = []
    size = 2 * rng.randint(3, 12)
    floating = rng.random()
    while len(positions) < size:
        z = rng.choice([0, 0, 0, 1, 1, 2, 3])
        x, y = rng.randint(0, 10), rng.randint(0, 6)
        if z and floating < .7 and not any(
                p[2] == z - 1 and abs(p[0] - x) <= 1 and abs(p[1] - y) <= 1 for p in positions):
            continue  # mostly, every upper tile rests on one below
        if all(p[2] != z or abs(p[0] - x) > 1 or abs(p[1] - y) > 1 for p in positions):
            positions.append((x, y, z))
    positions.sort(key=lambda p: (p[2], p[1], p[0]))
    top = max(p[2] for p in positions)
    ids = range(size)
    return Layout(
        "fuzz", tuple(positions),
        capstones=frozenset(t for t in ids if positions[t][2] == top and rng.random() < .7),
        vaults=frozenset(t for t in ids if positions[t][2] == 0 and rng.random() < .3),
        face_down=frozenset(t for t in ids if rng.random() < .3))


@pytest.mark.parametrize("seed", range(300))
def test_small_random_layouts_agree_with_the_reference_model(seed: int) -> None:
    """Tiny random monuments make the rare events (vaults opened from every side,
    capstone pairs, finishes, lockouts, reshuffles, face-down tiles) common."""
    rng = random.Random(seed)
    options = random_options(rng)
    options["layout"] = "fuzz"
    if options["mode"] == "time-attack" and options["clock"] == "real":
        options["time_limit_seconds"] = rng.randint(5, 60)
    layout = random_layout(rng)
    # Every face an even number of times, as in every deal (the tile set's rule).
    faces = [f for _ in range(layout.size // 2) for f in [rng.randrange(39)] * 2]
    rng.shuffle(faces)
    game = MahjonggGame(layout_object=layout, **options)
    weights = {**WEIGHTS, "finish": 1000, "shift": 20} if seed % 3 == 0 else WEIGHTS
    play(options, seed, game=game, faces=faces if seed % 4 else None, weights=weights)


@pytest.mark.parametrize(("options", "script"), [
    # The vault's token pays for Ra Sight: undoing the sight keeps it spent, and the
    # pair that won the token can no longer be undone (its token is gone).
    ({"start_tokens": 0}, ("match 0 9", "match 1 6", "sight", "undo")),
    # ... unless favors are refunded.
    ({"start_tokens": 0, "undo_refunds_favors": True},
     ("match 0 9", "match 1 6", "sight", "undo", "undo", "undo")),
    # A capstone pair, then three doubled pairs and a finish, in co-op.
    ({"mode": "coop", "players": 2}, ("match 0 9", "match 1 6", "match 2 5", "finish")),
    # Time attack on the turn clock: the last pair empties the board at once.
    ({"mode": "time-attack", "clock": "turns", "turn_seconds": 1, "time_limit_seconds": 3},
     ("match 0 9", "sight")),
    ({"mode": "time-attack", "time_limit_seconds": 30}, ("clock 5", "match 0 9", "clock 29",
                                                         "match 1 6", "clock 30")),
    # Ties at a table: both pass at once; everyone equal shares (returns 0).
    ({"players": 2}, ("pass", "pass")),
    ({"players": 3, "turn_order": "behind"}, ("match 7 8", "match 0 9", "match 1 6")),
])
def test_scripted_lines_on_the_mini_board_agree(options: dict[str, Any],
                                                script: tuple[str, ...]) -> None:
    game = mini_game(**options)
    for seed in range(3):
        play(options, seed, game=game, faces=MINI_FACES, script=script)
