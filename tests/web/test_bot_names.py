"""The browser and the terminal name every built-in bot with the same catalogue words."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import pyramids.web
from pyramids.agents import agent_names, base
from pyramids.play.i18n import words_text
from pyramids.play.movelog import table_names
from pyramids.play.results import SEAT_NAME_WORDS

COMMON_JS = Path(pyramids.web.__file__).parent / "static" / "common.js"


def browser_bot_words() -> dict[str, str]:
    """`agentLabel`'s table in common.js: agent name -> the message it translates."""
    source = COMMON_JS.read_text(encoding="utf-8")
    body = source[source.index("export function agentLabel"):]
    table = body[body.index("const labels = {"):body.index("};")]
    return {key.strip('"'): message for key, message in
            re.findall(r'^\s*("?[\w-]+"?): t\("([^"]+)"\),$', table, re.MULTILINE)}


def test_the_browser_and_the_terminal_use_the_same_words_for_each_bot() -> None:
    browser = browser_bot_words()
    terminal = {name: words for name, words in SEAT_NAME_WORDS.items() if name != "human"}
    assert browser == terminal
    # Every agent this package registers has words; only a plugin's (or a test's)
    # agent is shown as typed.
    assert set(own_agents()) <= set(terminal)
    assert {"easy", "expert", "greedy", "openspiel-mcts"} <= set(own_agents())


def own_agents() -> list[str]:
    """The agents registered from this package's modules (a plugin's entry point
    carries its module too)."""
    return [name for name in agent_names()
            if getattr(base._AGENTS[name], "__module__", "").startswith("pyramids.")]


# common.js run by node with the little of a page it touches when loaded.
NAMES_SCRIPT = """
globalThis.document = { cookie: "", documentElement: {}, querySelectorAll: () => [],
                        addEventListener() {} };
globalThis.window = { location: { search: "", href: "http://x/" }, addEventListener() {},
                      localStorage: { getItem: () => null, setItem() {} } };
globalThis.navigator = { languages: ["en"], language: "en" };
const common = await import(process.argv[1]);
const seats = JSON.parse(process.argv[2]);
console.log(JSON.stringify(seats.map((_, index) => common.seatName(seats, index))));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
@pytest.mark.parametrize("agents", [
    ["mcts:iterations=5"], ["mcts:iterations=5", "mcts"], ["greedy:mistakes=0.3", "hard"],
    ["Re: Bea"]])
def test_the_browser_names_a_bot_with_an_agent_setting_as_the_server_does(
        agents: list[str]) -> None:
    """A seat holding `mcts:iterations=5` reads as its agent's words on the pages, as
    the move log names it (`table_names`): never the setting."""
    seats = [{"kind": "person", "name": "Bea"},
             *({"kind": "agent", "agent": agent} for agent in agents)]
    shown = json.loads(subprocess.run(
        ["node", "--input-type=module", "-e", NAMES_SCRIPT, "--", COMMON_JS.as_uri(),
         json.dumps(seats)], capture_output=True, text=True, check=True, timeout=60).stdout)
    server = table_names({0: "Bea"}, {seat: agent for seat, agent in enumerate(agents, 1)})
    assert shown == [words_text(server[seat], "en") for seat in range(len(seats))]
    assert not any("=" in name for name in shown)
