import pytest

from pyramids.core.errors import OptionError
from pyramids.core.options import Option, resolve_options

SPECS = (
    Option("players", 4, int, "number of players", minimum=2, maximum=5),
    Option("direction", "descending", str, "pyramid direction",
           choices=("descending", "ascending")),
    Option("pantheon_pairs", True, bool, "deity partners match"),
    Option("ratio", 0.5, float, "a ratio", minimum=0.0, maximum=1.0),
)


def test_defaults_and_typed_values_from_text() -> None:
    assert resolve_options("g", SPECS, {}) == {
        "players": 4, "direction": "descending", "pantheon_pairs": True, "ratio": 0.5,
    }
    got = resolve_options("g", SPECS, {"players": "3", "pantheon_pairs": "off", "ratio": "1"})
    assert got["players"] == 3 and got["pantheon_pairs"] is False and got["ratio"] == 1.0


def test_unknown_option_lists_the_allowed_ones() -> None:
    with pytest.raises(OptionError, match="unknown option colour; allowed options: direction, "
                                          "pantheon_pairs, players, ratio"):
        resolve_options("g", SPECS, {"colour": "red"})


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"players": 6}, r"players=6 is too large; allowed: an integer >= 2 and <= 5"),
        ({"players": 1}, r"players=1 is too small"),
        ({"players": "four"}, r"players=four is not valid; allowed: an integer"),
        ({"players": True}, r"players=true is not valid"),
        ({"direction": "up"}, r"direction=up is not valid; allowed: one of descending, "),
        ({"pantheon_pairs": "maybe"}, r"allowed: true or false"),
        ({"ratio": 2}, r"ratio=2 is too large"),
    ],
)
def test_bad_values_say_what_is_allowed(given: dict, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        resolve_options("g", SPECS, given)


def test_what_an_option_allows_reads_in_player_words_and_as_keys_for_the_command_line(
) -> None:
    """Players read "an integer >= 0 and <= 1000000" and "true or false" in the lobby's
    hints and the terminal app's options screen, where on/off options show as on/off;
    the command line, where true/false are typed, keeps its words."""
    from pyramids.core.options import Option
    from pyramids.play.i18n import words_text

    budget = Option("budget", 5, int, "", minimum=0, maximum=1_000_000)
    least = Option("players", 2, int, "", minimum=1)
    flag = Option("flag", True, bool, "")
    assert words_text(budget.allowed_words(), "en") == "a whole number from 0 to 1,000,000"
    assert words_text(budget.allowed_words(), "ko") == "0부터 1,000,000까지의 정수"
    assert words_text(least.allowed_words(), "en") == "a whole number, at least 1"
    assert words_text(flag.allowed_words(), "en") == "on or off"
    assert words_text(flag.allowed_words(), "ko") == "켬 또는 끔"
    assert budget.allowed() == "an integer >= 0 and <= 1000000"
    with pytest.raises(OptionError) as refused:
        resolve_options("g", [budget, flag], {"budget": 2_000_000})
    assert str(refused.value) == (
        "budget=2000000 is too large; allowed: an integer >= 0 and <= 1000000")
    assert words_text(refused.value, "en", keys=True) == str(refused.value)
    assert words_text(refused.value, "en").endswith("allowed: a whole number from 0 to 1,000,000")
    with pytest.raises(OptionError) as refused:
        resolve_options("g", [budget, flag], {"flag": "maybe"})
    assert str(refused.value).endswith("allowed: true or false")
    assert words_text(refused.value, "en").endswith("allowed: on or off")


def test_a_record_from_before_an_option_replays_under_the_rule_of_its_day() -> None:
    import random

    from pyramids.core import GameRecord, load

    # Temple started every round by rotation before `start_rule` existed.
    game = load("temple", players=3, start_rule="rotate")
    state = game.new_initial_state(5)
    rng = random.Random(5)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    record = GameRecord.from_state(state)
    old = GameRecord(record.game, {k: v for k, v in record.options.items() if k != "start_rule"},
                     record.seed, record.actions)
    replayed = old.final_state()
    assert replayed.game.options["start_rule"] == "rotate"
    assert replayed.to_json() == state.to_json()
    # A new game without the option gets today's rule.
    assert load("temple", players=3).options["start_rule"] != "rotate"


def test_a_saved_state_from_before_an_option_loads() -> None:
    import json

    from pyramids.core import load

    state = load("temple", players=3).new_initial_state(2)
    data = json.loads(state.to_json())
    del data["options"]["start_rule"]
    loaded = load("temple", players=3).state_from_json(json.dumps(data))
    assert loaded.legal_actions() == state.legal_actions()


def test_numpy_numbers_are_the_numbers_they_hold() -> None:
    """A curriculum or sweep of options made with NumPy (np.int64, np.float32, np.bool_)
    was refused with the number shown as text: 'rounds_to_win="1" is not valid;
    allowed: an integer >= 1 and <= 99', though 1 is such an integer."""
    np = pytest.importorskip("numpy")
    from pyramids.core import load

    game = load("pacal", rounds_to_win=np.int64(1), max_rounds=np.float32(9.0),
                direction=np.str_("ascending"))
    assert game.options["rounds_to_win"] == 1 and game.options["max_rounds"] == 9
    assert [type(game.options[name]) for name in ("rounds_to_win", "max_rounds",
                                                  "direction")] == [int, int, str]
    flag = load("mahjongg", pantheon_pairs=np.bool_(False)).options["pantheon_pairs"]
    assert flag is False
    with pytest.raises(OptionError, match=r"^rounds_to_win=0 is too small; allowed: an "
                                          r"integer >= 1 and <= 99$"):
        load("pacal", rounds_to_win=np.int64(0))
    with pytest.raises(OptionError, match=r"^rounds_to_win=1.5 is not valid"):
        load("pacal", rounds_to_win=np.float64(1.5))
    with pytest.raises(OptionError, match="is not valid; allowed: an integer"):
        load("pacal", rounds_to_win=np.bool_(True))  # a flag is not a count
