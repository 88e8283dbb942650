"""Glicko-2 against Glickman's worked example, the pairwise extension for tables of
more than two, and the bots' measured ratings."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyramids.core import game_names
from pyramids.web.ratings import (
    Rating,
    bot_ratings,
    closest_bot,
    expected_score,
    forfeit_matches,
    pair_score,
    place_matches,
    rate_matches,
    rate_table,
    update,
)


def test_glickmans_worked_example() -> None:
    """Glickman, "Example of the Glicko-2 system": 1500/200/0.06 beats 1400/30 and loses
    to 1550/100 and 1700/300 -> 1464.06, 151.52, 0.05999 (tau 0.5)."""
    player = Rating(1500, 200, 0.06)
    games = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    after = update(player, games)
    assert after.rating == pytest.approx(1464.06, abs=0.015)
    assert after.deviation == pytest.approx(151.52, abs=0.005)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_no_games_only_widens_the_deviation() -> None:
    after = update(Rating(1600, 50, 0.06), [])
    assert after.rating == 1600
    assert after.deviation == pytest.approx((50**2 + (0.06 * 173.7178) ** 2) ** 0.5)


def test_a_score_is_a_win_a_draw_or_a_loss() -> None:
    with pytest.raises(ValueError, match="1 \\(won\\), 0.5 \\(drawn\\) or 0 \\(lost\\)"):
        update(Rating(), [(Rating(), 0.7)])


def test_a_four_player_table_rates_every_pair_by_finishing_order() -> None:
    """Temple: returns 3 > 1 = 1 > -2. The winner beat three, the two seconds drew with
    each other, the last lost three; each seat's update is Glicko-2 against the other
    three at once, from the ratings before the game."""
    before = [Rating(1500, 200), Rating(1500, 200), Rating(1500, 200), Rating(1500, 200)]
    returns = [3.0, 1.0, 1.0, -2.0]
    after = rate_table(before, returns, [True, True, True, True])
    expected_first = update(before[0], [(before[1], 1.0), (before[2], 1.0), (before[3], 1.0)])
    assert after[0].rating == pytest.approx(expected_first.rating)
    assert after[0].rating > after[1].rating > after[3].rating
    assert after[1].rating == pytest.approx(after[2].rating)
    assert after[1].rating == pytest.approx(1500.0)  # one win, one draw, one loss, all equal
    assert sum(r.rating for r in after) == pytest.approx(6000.0)  # equal players: zero sum


def test_a_table_rates_the_losers_by_their_place_not_as_a_draw() -> None:
    """Temple's returns are a winner's: the three losers of a table all got -1/3, so a
    player who came last drew with the two who beat them. The places are the game's
    standings (score, then jewels), so each pair is decided by where they finished."""
    from pyramids.core import load

    state = load("temple", players=4).new_initial_state(3)
    rng = __import__("random").Random(3)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    places = state.standings()
    assert len(set(state.returns())) == 2 and len(set(places)) > 2  # losers told apart
    before = [Rating(1500, 200)] * 4
    after = rate_table(before, places, [True] * 4)
    order = sorted(range(4), key=lambda seat: places[seat], reverse=True)
    for higher, lower in zip(order, order[1:], strict=False):
        if places[higher] > places[lower]:
            assert after[higher].rating > after[lower].rating
    # Keys of tie-breaks: (55, 2) beats (55, 1), which draws with (55, 1).
    scored = rate_table(before[:3], [(55, 2), (55, 1), (55, 1)], [True] * 3)
    assert scored[0].rating > scored[1].rating == pytest.approx(scored[2].rating)


def test_a_forfeit_at_four_rates_only_the_forfeiters_games_worked_by_hand() -> None:
    """Four newcomers (1500, RD 350, volatility 0.06); seat 3 forfeits (out of time turn
    after turn, or away when the host ended the game). Seat 3 lost to each of the three
    others; the three others never finished their game among themselves, so they are
    not rated against each other: each is rated on one won match against seat 3 only.

    By hand (Glickman's steps; 173.7178 the scale): phi = 350/173.7178 = 2.01476,
    g(phi) = 1/sqrt(1 + 3 phi^2/pi^2) = 0.66907, E = 0.5 between equals.
    One win (each seat still there): v = 1/(g^2 E(1-E)) = 8.93547, delta = v g (1 - E)
    = 2.98923; the volatility stays 0.06 (to 1e-6), phi* = sqrt(phi^2 + 0.06^2),
    phi' = 1/sqrt(1/phi*^2 + 1/v) = 1.67121 (RD 290.32), mu' = phi'^2 g (1 - E) =
    0.93434: rating 1500 + 173.7178 x 0.93434 = 1662.31.
    Three losses (seat 3): v = 1/(3 g^2 E(1-E)) = 2.97849, phi' = 1.31095 (RD 227.74),
    mu' = phi'^2 x 3 g (0 - E) = -1.72478: rating 1200.37."""
    before = [Rating()] * 4
    after = rate_matches(before, forfeit_matches(4, [2]), [True] * 4)
    for seat in (0, 1, 3):
        assert after[seat].rating == pytest.approx(1662.31, abs=0.01)
        assert after[seat].deviation == pytest.approx(290.32, abs=0.01)
    assert after[2].rating == pytest.approx(1200.37, abs=0.01)
    assert after[2].deviation == pytest.approx(227.74, abs=0.01)
    # The same as a two-player game each seat won against seat 3: nothing of the others.
    assert after[0] == update(before[0], [(before[2], 1.0)], clamp=True)
    # Placed first together (the old rule), the three drew with each other as well:
    # two draws and a win between equals is far less than a win.
    shared = rate_table(before, [1.0, 1.0, 0.0, 1.0], [True] * 4)
    assert shared[0].rating < 1600 < after[0].rating


def test_a_forfeit_rates_each_seat_still_there_on_its_match_with_the_forfeiter_alone(
) -> None:
    """Ratings that differ: a strong seat still there gains exactly what beating the
    forfeiter gives it, whatever the other seats' ratings; two forfeiters do not play
    each other; everyone away leaves every rating as it was."""
    before = [Rating(1900, 60), Rating(1500, 350), Rating(1400, 120), Rating(1650, 200)]
    after = rate_matches(before, forfeit_matches(4, [2]), [True] * 4)
    for seat in (0, 1, 3):
        assert after[seat] == update(before[seat], [(before[2], 1.0)], clamp=True)
    others = [(before[seat], 0.0) for seat in (0, 1, 3)]
    assert after[2] == update(before[2], others, clamp=True)
    assert after[2].rating < 1400 and all(after[s].rating > before[s].rating
                                          for s in (0, 1, 3))
    two = forfeit_matches(4, [1, 2])
    assert two[1][2] is None and two[0][3] is None and two[1][0] == 0.0 and two[3][2] == 1.0
    twice = rate_matches(before, two, [True] * 4)
    assert twice[1] == update(before[1], [(before[0], 0.0), (before[3], 0.0)], clamp=True)
    assert rate_matches(before, forfeit_matches(4, range(4)), [True] * 4) == before
    # A bot still there counts as the forfeiter's opponent and never moves.
    with_bot = rate_matches(before, forfeit_matches(4, [2]), [True, False, True, True])
    assert with_bot[1] == before[1] and with_bot[2] == after[2]
    with pytest.raises(ValueError, match="one row of matches"):
        rate_matches(before, forfeit_matches(3, [0]), [True] * 4)


def test_a_two_seat_forfeit_is_rated_as_before_a_win_and_a_loss() -> None:
    before = [Rating(1500, 350), Rating(1620, 90)]
    for forfeiter in (0, 1):
        places = [0.0 if seat == forfeiter else 1.0 for seat in range(2)]
        assert forfeit_matches(2, [forfeiter]) == place_matches(places)
        assert rate_matches(before, forfeit_matches(2, [forfeiter]), [True, True]) == \
            rate_table(before, places, [True, True])


def test_a_bot_counts_as_an_opponent_and_never_moves() -> None:
    person, bot = Rating(1500, 350), Rating(1800, 40)
    after = rate_table([person, bot], [1.0, -1.0], [True, False])
    assert after[1] == bot
    assert after[0].rating > 1500 + 200  # beating a far stronger, well-known bot
    with pytest.raises(ValueError, match="one rating, one place"):
        rate_table([person], [1.0, 0.0], [True])


@settings(max_examples=100, deadline=None)
@given(
    ratings=st.lists(st.tuples(st.floats(800, 2400), st.floats(30, 350)), min_size=2,
                     max_size=4),
    returns=st.lists(st.integers(-3, 3), min_size=4, max_size=4),
)
def test_winning_never_lowers_and_losing_never_raises_a_rating(
    ratings: list[tuple[float, float]], returns: list[int]
) -> None:
    before = [Rating(r, d) for r, d in ratings]
    table = [float(value) for value in returns[: len(before)]]
    after = rate_table(before, table, [True] * len(before))
    for seat, (old, new) in enumerate(zip(before, after, strict=True)):
        scores = [pair_score(table[seat], table[o]) for o in range(len(table)) if o != seat]
        if all(score == 1.0 for score in scores):
            assert new.rating >= old.rating
        if all(score == 0.0 for score in scores):
            assert new.rating <= old.rating
        assert 30.0 <= new.deviation <= 350.0


def test_expected_score_is_symmetric_between_equals() -> None:
    assert expected_score(Rating(1500, 100), Rating(1500, 100)) == pytest.approx(0.5)
    assert expected_score(Rating(1700, 50), Rating(1500, 50)) > 0.7


def test_the_bots_ratings_are_measured_for_known_games_and_agents() -> None:
    from pyramids.agents import agent_names

    measured = bot_ratings()
    assert measured, "bot_ratings.json holds no game"
    for game, bots in measured.items():
        assert game in game_names()
        assert set(bots) <= set(agent_names())
        for rating in bots.values():
            assert 0 < rating.deviation <= 350 and 0 < rating.rating < 4000
        weakest = min(bots, key=lambda name: bots[name].rating)
        assert closest_bot(game, bots[weakest].rating - 500) == weakest
    assert closest_bot("no-such-game", 1500) is None
