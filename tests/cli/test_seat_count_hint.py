"""A table of another size than the game's default: where the game's players option
allows the count of agents or seats given, the refusal says to give `--players`, the
option a designer (or a player) has to find otherwise in `--help`."""

from __future__ import annotations

from typer.testing import CliRunner

from pyramids.cli.main import app


def refusal(*args: str) -> str:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code != 0
    return result.output


def test_simulate_names_the_players_option_for_the_count_of_agents() -> None:
    output = refusal("simulate", "temple", "--agents", "greedy,random", "--games", "1")
    assert "temple has 4 seats; got 2 agents: greedy, random" in output
    assert "for a table of 2, give --players 2 too" in output


def test_simulate_does_not_offer_a_count_the_game_cannot_seat() -> None:
    output = refusal("simulate", "pacal", "--agents", "greedy,random,random", "--games", "1")
    assert "pacal has 2 seats; got 3 agents" in output
    assert "--players" not in output
    output = refusal("simulate", "temple", "--agents", ",".join(["random"] * 7), "--games", "1")
    assert "temple has 4 seats; got 7 agents" in output
    assert "--players" not in output


def test_play_names_the_players_option_for_the_count_of_seats() -> None:
    output = refusal("play", "temple", "--plain", "--seats", "human,greedy,greedy")
    assert "temple has 4 seats; --seats gave 3: human,greedy,greedy" in output
    assert "for a table of 3, give --players 3 too" in output
