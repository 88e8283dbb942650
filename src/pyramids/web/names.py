"""How a player's name looks: two names that look alike must not pass for one another.

A name whose letters all come from one alphabet can still look like another name:
"Веа", in Cyrillic letters, reads exactly as "Bea"; "BiII" as "Bill". Unicode lists
such look-alike characters (its confusables, UTS #39); the `confusable_homoglyphs`
package ships that list. `name_look` maps every character to one representative of
the characters that look like it, so names that look alike have the same look:

- an account may not take a name that looks like another account's name, and a
  guest may not play under one;
- where two seats' names look alike, the log and the pages name each with its seat
  ("Bea (seat 2)"), as they do for two seats of the same name.

A look is for comparing, never for showing: it mixes alphabets freely.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from confusable_homoglyphs.utils import load


@lru_cache(maxsize=1)
def _representatives() -> dict[str, str]:
    """Each listed character's representative: the smallest character among those that
    look like it, the list's look-alike pairs taken as one relation (so if "l" looks
    like "I" and "I" like "1", all three share "1")."""
    parent: dict[str, str] = {}

    def root(char: str) -> str:
        parent.setdefault(char, char)
        while parent[char] != char:
            parent[char] = parent[parent[char]]
            char = parent[char]
        return char

    for char, glyphs in load("confusables.json").items():
        if len(char) != 1:
            continue
        for glyph in glyphs:
            # A character that looks like a sequence ("rn" and "m") is left out: a
            # look keeps the name's length.
            if len(glyph["c"]) == 1:
                first, second = root(char), root(glyph["c"])
                if first != second:
                    parent[max(first, second)] = min(first, second)
    return {char: root(char) for char in parent}


def name_look(name: str) -> str:
    """What `name` looks like: equal for names a reader could take for one another
    (whatever their case, full-width forms or look-alike letters), and for a name and
    itself with other spacing."""
    representatives = _representatives()
    plain = unicodedata.normalize("NFKC", " ".join(name.split()))
    return "".join(representatives.get(char, char) for char in plain).casefold()
