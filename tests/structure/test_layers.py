"""The shape of the code: one direction of dependency, and one place per game.

- Layers: core <- games <- agents <- sim/play <- cli/tui/web/testing. A module
  imports only its own part and the layers below it (the command line may open
  the terminal app and the server, which are its sub-commands); imports inside
  functions count too.
- Games: a built-in game's name appears only in its own package and in the
  companion modules its manifest names. Every other table or check that names
  a game would have to be edited for a new game; the manifest is the one place.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from pyramids.core import manifests

SRC = Path(__file__).resolve().parents[2] / "src" / "pyramids"

LAYERS = {
    "core": 0,
    "games": 1,
    "agents": 2,
    "sim": 3,
    "play": 3,
    "cli": 4,
    "tui": 4,
    "web": 4,
    "rl": 4,
    "openspiel": 5,
    "testing": 4,
}
# Same-layer imports that are allowed: the command line starts the other interfaces.
SIDEWAYS = {("cli", "tui"), ("cli", "web")}
# Tools that belong to one game and say so in their command (`pyramids solve mahjongg`).
GAME_TOOLS = {("cli/solve.py", "mahjongg")}


def _part(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "pyramids":
        return None
    return parts[1] if len(parts) > 1 else "pyramids"


def _module_name(path: Path) -> str:
    relative = path.relative_to(SRC.parent).with_suffix("")
    parts = list(relative.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path, module_name: str | None = None) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    module_name = module_name or _module_name(path)
    package = module_name if path.name == "__init__.py" else module_name.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            found.append((node.lineno, module))
    return found


def layer_violations() -> list[str]:
    problems = []
    for path in sorted(SRC.rglob("*.py")):
        own = _part(_module_name(path))
        if own not in LAYERS:
            continue
        for line, module in _imports(path):
            other = _part(module)
            if other is None or other == own or other not in LAYERS:
                continue
            if LAYERS[other] > LAYERS[own] or (
                LAYERS[other] == LAYERS[own] and (own, other) not in SIDEWAYS
            ):
                problems.append(f"{path.relative_to(SRC)}:{line}: {own} imports {module}")
    return problems


def test_no_module_imports_a_layer_above_it() -> None:
    assert layer_violations() == []


def test_the_layer_check_sees_an_upward_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "def f():\n    from pyramids.cli.main import app\n    from ..tui import board\n"
    )
    assert _imports(sample, "pyramids.games.sample") == [(2, "pyramids.cli.main"),
                                                         (3, "pyramids.tui")]


def _companion_files() -> dict[str, set[Path]]:
    """Each built-in game's own files: its package and the companion modules it names."""
    owned: dict[str, set[Path]] = {}
    for manifest in manifests():
        module = manifest.factory.__module__
        if not module.startswith("pyramids.games."):
            continue
        files = {path for path in (SRC / "games" / module.split(".")[2]).rglob("*")}
        for kind in ("greedy_policy", "planner", "text_renderer", "terminal_board", "move_log",
                     "observation_encoder"):
            path = getattr(manifest, kind)
            if path:
                name = path.partition(":")[0]
                files.add(SRC.parent / (name.replace(".", "/") + ".py"))
        if manifest.web_renderer:
            package, _, file_name = manifest.web_renderer.partition(":")
            files.add(SRC.parent / package.replace(".", "/") / file_name)
        owned[manifest.name] = files
    return owned


def _python_strings(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in docstrings]


def game_name_mentions() -> list[str]:
    owned = _companion_files()
    names = sorted(owned, key=len, reverse=True)
    alternatives = "|".join(map(re.escape, names))
    js_pattern = re.compile(rf"""["'`]({alternatives})["'`]|\b({alternatives})\s*:""")
    problems = []
    for path in sorted(SRC.rglob("*")):
        if path.suffix not in (".py", ".js", ".html"):
            continue
        allowed = {name for name, files in owned.items() if path in files}
        if path.suffix == ".py":
            hits = [(line, text) for line, text in _python_strings(path) if text in owned]
        else:
            hits = [
                (number, match.group(1) or match.group(2))
                for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                for match in js_pattern.finditer(line)
            ]
        for line, name in hits:
            # A game's companion may name its sibling variants (Pacal and Pacal solo).
            if name in allowed or (allowed and any(owned[name] & owned[a] for a in allowed)):
                continue
            if (str(path.relative_to(SRC)), name) in GAME_TOOLS:
                continue
            problems.append(f"{path.relative_to(SRC)}:{line}: names the game {name!r}")
    return problems


def test_game_names_appear_only_in_their_manifest_and_companions() -> None:
    assert game_name_mentions() == []


@pytest.mark.parametrize("name", ["pacal", "temple", "mahjongg"])
def test_every_built_in_game_owns_its_companions(name: str) -> None:
    assert any(path.name.startswith(name) for path in _companion_files()[name]
               if path.parent.name != name)
