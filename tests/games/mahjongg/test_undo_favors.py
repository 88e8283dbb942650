"""With `undo_refunds_favors` off, undo gives back no favor's tokens, however the favor
is reached: undoing the match before a favor must not refund it (match, favor, undo,
undo), or a solo player could peek under tiles and see every pair for free and still
top a best-score table. By default (`undo_keeps_peeks_paid`) only a peek stays paid:
test_undo_peeks."""

from __future__ import annotations

import random

import pytest

from pyramids.core import load

from .conftest import MINI_FACES, mini_game


def test_undoing_the_match_before_a_favor_keeps_the_favor_paid() -> None:
    game = mini_game(face_down=frozenset({1, 2}))
    state = game.state_with_faces(MINI_FACES, seed=1)
    start = state.view(0)
    cost = game.options["shift_cost"]
    state.apply_string("match 7 8")
    state.apply_string("shift 1")
    state.apply_string("undo")
    state.apply_string("undo")
    after = state.view(0)
    assert after["tokens"] == [start["tokens"][0] - cost]
    assert after["bank"] == start["bank"] + cost
    assert "match 7 8" in state.legal_action_strings()


def test_sight_twice_across_matches_costs_twice() -> None:
    game = mini_game(undo_refunds_favors=False)
    state = game.state_with_faces(MINI_FACES, seed=1)
    start = state.view(0)["tokens"][0]
    cost = game.options["sight_cost"]
    state.apply_string("match 0 9")
    state.apply_string("sight")
    state.apply_string("match 7 8")
    assert "sight" in state.legal_action_strings()  # Ra Sight lasts one turn
    state.apply_string("sight")
    assert state.view(0)["tokens"] == [start - 2 * cost]
    for _ in range(4):
        state.apply_string("undo")
    assert "undo" not in state.legal_action_strings()
    assert state.view(0)["tokens"] == [start - 2 * cost]


def test_an_undone_favor_is_told_to_stay_paid_in_the_move_log() -> None:
    """Undo after Ra Sight took the sight back but kept its token, and the log said
    only "took back the last move": the player could not tell why the token was gone."""
    from pyramids.play.movelog import describe_for, describer

    for refunds, kept in ((False, 1), (True, 0)):
        state = mini_game(undo_refunds_favors=refunds).state_with_faces(MINI_FACES, seed=1)
        state.apply_string("sight")
        before = state.view(0)
        state.apply_string("undo")
        after = state.view(0)
        assert after["last_move"].get("tokens_kept_spent", 0) == kept
        lines = [line.text() for line in describe_for(describer("mahjongg"), "undo", 0, 0,
                                                      before, after)]
        told = ("You took back the last move; the 1 token paid for a favor stays spent."
                if kept else "You took back the last move.")
        assert told in lines, lines
        korean = [line.text("ko") for line in describe_for(describer("mahjongg"), "undo", 0, 0,
                                                           before, after)]
        assert not any("took back" in line for line in korean)


def test_the_legacy_option_still_refunds_on_undo() -> None:
    # Records made before the decision replay with `undo_refunds_favors=True`.
    game = mini_game(face_down=frozenset({1, 2}), undo_refunds_favors=True,
                     undo_keeps_peeks_paid=False)
    state = game.state_with_faces(MINI_FACES, seed=1)
    start = state.view(0)
    state.apply_string("match 7 8")
    state.apply_string("shift 1")
    state.apply_string("undo")
    state.apply_string("undo")
    assert state.view(0)["tokens"] == start["tokens"]


def test_tokens_and_bank_never_exceed_the_set_over_random_undo_play() -> None:
    # Over random solo games with undos and favors, a token is never created:
    # wallet + bank stays the set's 20, and after undoing to the very start the
    # wallet holds the start tokens minus every favor paid on the way.
    game = load("mahjongg", layout="giza-step-ramp", start_tokens=4, undo_refunds_favors=False)
    costs = {"sight": game.options["sight_cost"], "shift": game.options["shift_cost"],
             "reshuffle": game.options["reshuffle_cost"]}
    for seed in range(25):
        pick = random.Random(seed)
        state = game.new_initial_state(seed)
        start = state.view(0)
        paid = 0
        for _ in range(60):
            if state.is_terminal():
                break
            moves = [m for m in state.legal_action_strings() if m not in ("pass", "finish")]
            if not moves:
                break
            choice = pick.choice(moves)
            paid += costs.get(choice.split()[0], 0)
            state.apply_string(choice)
            view = state.view(0)
            assert view["tokens"][0] + view["bank"] == start["tokens"][0] + start["bank"]
        while not state.is_terminal() and "undo" in state.legal_action_strings():
            state.apply_string("undo")
        if not state.is_terminal():
            assert state.view(0)["tokens"] == [start["tokens"][0] - paid]


def test_each_favor_button_that_is_off_says_why() -> None:
    """A disabled Hint or Undo said nothing: the state names why each is off now."""
    from pyramids.core.errors import words_json

    state = mini_game().state_with_faces(MINI_FACES, seed=1)
    off = state.unavailable()
    assert str(off["undo"]) == "there is nothing to undo"
    assert "hint" not in off and "sight" not in off  # both can be used now
    assert all(text not in off for text in state.legal_action_strings())
    state.apply_string("sight")
    off = state.unavailable()
    assert str(off["sight"]) == "Ra Sight is already showing this turn's pairs"
    assert "undo" not in off  # the sight can be taken back
    data = words_json(off["sight"])
    assert data == {"msgid": "Ra Sight is already showing this turn's pairs", "values": {}}
    # Two players: no hint or undo buttons to explain; a lack of tokens is told with
    # the price and what the player holds.
    duel = load("mahjongg", players=2).new_initial_state(3)
    while duel.tokens[duel.wallet(duel.player)] > 0 and "sight" in duel.legal_action_strings():
        duel.apply_string("sight")
        duel.apply_string(next(m for m in duel.legal_action_strings() if m.startswith("match")))
    off = duel.unavailable()
    assert "hint" not in off and "undo" not in off
    if duel.tokens[duel.wallet(duel.player)] == 0:
        assert str(off["sight"]).startswith("Ra Sight costs 1 token")
        nested = words_json(off["sight"])
        assert nested["values"]["tokens"]["plural"] == "{count} tokens"
    assert load("mahjongg").new_initial_state(1).unavailable().keys() <= {
        "sight", "reshuffle", "hint", "undo", "finish", "shift", "reveal"}


@pytest.mark.parametrize("refunds", [False, True])
def test_long_random_games_keep_the_tokens_whole_through_undos(refunds: bool) -> None:
    """Tokens are never negative and bank plus hands stay what they were, however
    pairs, favors and undos mix (a game of 130 moves once reached -1: Ra Sight paid
    with a vault's token, then undone past the pair that won it). Such an undo is
    refused, and says why."""
    import random

    from pyramids.core import load
    from pyramids.games.mahjongg.explain import why_illegal

    game = load("mahjongg", layout="giza-step-ramp", undo_refunds_favors=refunds)
    rng = random.Random(0)
    refused = 0
    for seed in range(12):
        state = game.new_initial_state(seed)
        total = state.bank + sum(state.tokens)
        for _ in range(600):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            action = rng.choice(legal)
            if len(legal) > 1:  # long games: a move that would end it is played seldom
                trial = state.clone()
                trial.apply_action(action)
                if trial.is_terminal():
                    action = rng.choice([a for a in legal if a != action])
            state.apply_action(action)
            assert min(state.tokens) >= 0 and state.bank + sum(state.tokens) == total
            if state._undo and not state.undo_keeps_favors_paid():
                refused += 1
                assert "undo" not in state.legal_action_strings()
                undo = state.string_to_action("undo")
                said = str(why_illegal(state, undo))
                assert ("a favor's tokens stay spent" in said if not refunds else
                        "showed a face-down tile, so the favor's tokens stay spent" in said)
    assert refused or refunds  # the peek rule refuses seldom
