"""The browser and the terminal name every built-in bot with the same catalogue words."""

from __future__ import annotations

import re
from pathlib import Path

import pyramids.web
from pyramids.agents import agent_names, base
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
