#!/usr/bin/env bash
# The light install works on its own: a fresh venv with `pip install .` (no extras)
# lists, simulates and plays games at line prompts; a missing extra is one line
# naming it; a plugin package installed beside it appears everywhere.
set -euo pipefail
cd "$(dirname "$0")/.."

venv="$(mktemp -d)/core"
python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --upgrade pip
"$venv/bin/python" -m pip install -q .
pyramids="$venv/bin/pyramids"

check() {  # check WHAT EXPECTED-TEXT OUTPUT
    if ! grep -qF -- "$2" <<<"$3"; then
        echo "light install: $1 did not print '$2'; it printed:" >&2
        echo "$3" >&2
        exit 1
    fi
}

if "$venv/bin/python" -c "import textual" 2>/dev/null || "$venv/bin/python" -c "import fastapi" 2>/dev/null; then
    echo "light install: an extra's package was installed without the extra" >&2
    exit 1
fi
check "pyramids games" "pacal-solo" "$("$pyramids" games)"
check "pyramids simulate" "mean actions per game" "$("$pyramids" simulate pacal --games 20 --seed 1)"
check "pyramids arena" "Elo" "$("$pyramids" arena pacal --agents greedy,random --games 8)"
check "pyramids arena temple" "Elo" \
    "$("$pyramids" arena temple --agents greedy,hard --players 3 --games 3 --seed 1)"
check "pyramids bots" "setting: mcts:iterations=2000" "$("$pyramids" bots temple)"
# Pacal solo at line prompts: always the first legal move, until the game ends.
check "pyramids play pacal-solo --plain" "Game over." \
    "$(yes 1 | head -n 40 | "$pyramids" play pacal-solo --plain --seed 3)"
check "pyramids serve without [web]" "install it with: pip install 'pyramids[web]'" \
    "$("$pyramids" serve 2>&1 || true)"
check "pyramids play without [tui]" "pip install 'pyramids[tui]'" \
    "$("$pyramids" play pacal --seed 1 2>&1 </dev/null || true)"

# A third-party game: one entry point, no change to pyramids. The examples are built
# from a copy: a build writes build/ and *.egg-info into the folder it builds, and
# those, left in the checkout, would put the example plugins on the tests' path
# (its entry points read back) and let a stale build pass for a fresh one.
examples="$(mktemp -d)"
cp -r examples/pyramids-nim examples/pyramids-summit "$examples/"
"$venv/bin/python" -m pip install -q "$examples/pyramids-nim"
check "pyramids games (plugin)" "toy-nim" "$("$pyramids" games)"
check "pyramids simulate (plugin)" "seat 1 (Greedy rule): 10 wins" \
    "$("$pyramids" simulate toy-nim --agents greedy --games 10)"
check "pyramids play --plain (plugin)" "Game over." \
    "$(printf 'take 1\ntake 3\ntake 2\ntake 1\n' | "$pyramids" play toy-nim --plain --seats human,greedy --option stones=5)"
# Without --seats a person meets the medium level, which a plugin game gets too.
check "pyramids play --plain (plugin, default bots)" "seats: seat 1 (you), seat 2 (Medium)" \
    "$(printf 'take 1\ntake 3\ntake 2\ntake 1\n' | "$pyramids" play toy-nim --plain --option stones=5)"
check "pyramids bots (plugin)" "setting: mcts:iterations=400" "$("$pyramids" bots toy-nim)"
# Its rules page in Korean: rules.ko.md must travel in the package data too.
check "pyramids --lang ko rules (plugin)" "상대에게 4의 배수만큼 돌을 남기세요." \
    "$("$pyramids" --lang ko rules toy-nim)"
check "check_game (plugin)" "toy-nim:" \
    "$("$venv/bin/python" -c 'from pyramids.testing import check_game; print(check_game("toy-nim", games=20).summary())')"
# A plugin with hidden hands, a deck and its own Korean catalogue (locale/ko.po must
# travel in the package data).
"$venv/bin/python" -m pip install -q "$examples/pyramids-summit"
check "pyramids games (hidden-hand plugin)" "summit" "$("$pyramids" games)"
summit_moves="$(for _ in $(seq 12); do printf 'play %s\n' 1 2 3 4 5 6 7 8 9; done)"
check "pyramids --lang ko play --plain (the plugin's own Korean)" "내 손패:" \
    "$(printf '%s\n' "$summit_moves" | "$pyramids" --lang ko play summit --plain --seats human,greedy --seed 3)"
check "pyramids --lang ko rules (hidden-hand plugin)" "# 정상" \
    "$("$pyramids" --lang ko rules summit)"
check "check_game (hidden-hand plugin)" "summit:" \
    "$("$venv/bin/python" -c 'from pyramids.testing import check_game; print(check_game("summit", games=20).summary())')"
rm -rf "$(dirname "$venv")"
echo "light install: ok"
