"""The message catalogue: every string a player reads, in English and Korean.

Strings are gettext messages: the English text is the message id, marked in
the code with `_("...")` (or `ngettext(singular, plural, n)`), with `{name}`
placeholders filled by `str.format`. The catalogues are Babel `.po` files in
`pyramids/play/locale/<lang>/LC_MESSAGES/pyramids.po`, read once per process;
`tests/play/test_i18n.py` fails when a marked message lacks a translation.
Engines mark theirs with `N_` and raise errors carrying `Words`, shown here by
`words_text` (see `pyramids.core.errors`).

The language: an interface passes one (`lang=`), or the process default is
used, set by `set_language` (the CLI's `--lang`) or taken from the usual
environment variables (`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`). Inside
`with speaking(lang):` words made without a `lang=` are in `lang` (that thread or
task only): a server draws a game's text for one client in its language. The web
pages get the same catalogue as JSON (`catalogue_json`) and pick a language
from `Accept-Language` (`negotiate`).
"""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from gettext import c2py
from importlib.resources import files
from typing import Any

from babel.messages.pofile import read_po
from babel.numbers import format_decimal

from pyramids.core.errors import (
    KeyedWords,
    Number,
    OptionList,
    OptionRef,
    PluralWords,
    PyramidsError,
    Words,
)

LANGUAGES = ("en", "ko")
DEFAULT = "en"
DOMAIN = "pyramids"
LANGUAGE_NAMES = {"en": "English", "ko": "한국어"}

_chosen: str | None = None
_speaking: ContextVar[str | None] = ContextVar("pyramids_speaking", default=None)


class UnknownLanguageError(ValueError):
    """A language this project has no catalogue for."""


def check_language(lang: str) -> str:
    """`lang` reduced to a supported code (`ko_KR.UTF-8` -> `ko`), or an error naming them."""
    code = lang.replace("-", "_").split(".")[0].split("_")[0].lower()
    if code not in LANGUAGES:
        raise UnknownLanguageError(
            f"no messages in language {lang!r}; allowed: {', '.join(LANGUAGES)}"
        )
    return code


def set_language(lang: str | None) -> None:
    """The process default (None: from the environment again)."""
    global _chosen
    _chosen = None if lang is None else check_language(lang)


@contextmanager
def speaking(lang: str | None) -> Iterator[None]:
    """Words made in the block without a `lang=` are in `lang` (None: as they were), in
    this thread or task only: a game's own drawing (a `text_renderer`, which reads no
    language) drawn for one reader among several."""
    token = _speaking.set(None if lang is None else check_language(lang))
    try:
        yield
    finally:
        _speaking.reset(token)


def current_language() -> str:
    spoken = _speaking.get()
    if spoken is not None:
        return spoken
    if _chosen is not None:
        return _chosen
    return environment_language()


def language_option() -> str:
    """` --lang ko` where the run's language was chosen against the environment's, for a
    command the player is told to type (a resumed game came back in English); else ''."""
    if _chosen is None or _chosen == environment_language():
        return ""
    return f" --lang {_chosen}"


def environment_language() -> str:
    """The language the environment asks for (LANGUAGE, LC_ALL, LC_MESSAGES, LANG)."""
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(variable, "")
        for candidate in value.split(":"):
            if candidate and candidate not in ("C", "POSIX"):
                try:
                    return check_language(candidate)
                except UnknownLanguageError:
                    continue
    return DEFAULT


def negotiate(accept_language: str | None) -> str:
    """The best supported language for an HTTP `Accept-Language` header."""
    best, best_q = DEFAULT, -1.0
    for part in (accept_language or "").split(","):
        tag, _sep, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        try:
            code = check_language(tag) if tag and tag != "*" else None
        except UnknownLanguageError:
            code = None
        if code is not None and quality > best_q:
            best, best_q = code, quality
    return best


@cache
def _read(lang: str) -> tuple[dict[str, Any], Callable[[int], int]]:
    """msgid -> msgstr (a string, or a tuple of plural forms), and the plural index rule."""
    path = files(__package__).joinpath("locale", lang, "LC_MESSAGES", f"{DOMAIN}.po")
    with path.open("rb") as stream:
        catalog = read_po(stream, locale=lang)
    messages: dict[str, Any] = {}
    for message in catalog:
        if not message.id:
            continue
        key = message.id if isinstance(message.id, str) else message.id[0]
        messages[str(key)] = message.string
    return messages, c2py(catalog.plural_expr)


def _catalogue(lang: str) -> dict[str, Any]:
    from pyramids.core.registry import catalogues

    return _merged(lang, catalogues())


@cache
def _merged(lang: str, plugins: tuple[str, ...]) -> dict[str, Any]:
    """pyramids' catalogue for `lang`, then what the games' own catalogues add
    (`GameManifest.catalogue`): a plugin translates its messages, never pyramids'."""
    messages = dict(_read(lang)[0])
    for spec in plugins:
        for key, value in _read_plugin(spec, lang).items():
            if value and not messages.get(key):
                messages[key] = value
    return messages


def _read_plugin(spec: str, lang: str) -> dict[str, Any]:
    """msgid -> msgstr of a game's own catalogue ("package:folder" with `<lang>.po`);
    none where the game ships no file for `lang`, a warning where it cannot be read."""
    package, _, folder = spec.partition(":")
    try:
        path = files(package).joinpath(folder, f"{lang}.po")
        if not path.is_file():
            return {}
        with path.open("rb") as stream:
            catalog = read_po(stream, locale=lang)
    except Exception as error:  # noqa: BLE001 - a broken plugin file must not stop pyramids
        warnings.warn(f"the message catalogue {spec!r} ({lang}) cannot be read: {error}",
                      stacklevel=2)
        return {}
    return {str(m.id if isinstance(m.id, str) else m.id[0]): m.string
            for m in catalog if m.id}


def gettext(message: str, lang: str | None = None, **values: Any) -> str:
    """`message` in `lang` (the process default if None), with `{name}`s filled."""
    code = lang or current_language()
    translated = _catalogue(code).get(message) or message
    if isinstance(translated, tuple):
        translated = translated[0] or message
    text = translated.format(**values) if values else translated
    return korean_particles(text) if values and code == "ko" else text


_ = gettext


# Korean particles depend on the word before them: 을 after a final consonant, 를 after
# a vowel. A message writes both ("{card}을(를)") where a value comes before; once the
# value is in, the one that fits is kept. Digits are read as Korean numbers (1 일, 2 이,
# 10 십...); before a Latin word or a symbol both stay, as the catalogue wrote them.
_PARTICLES = re.compile(r"을\(를\)|이\(가\)|은\(는\)|와\(과\)|과\(와\)|\(으\)로")
# For each written pair: (after a final consonant, after a vowel, after final ㄹ).
_PARTICLE_FORMS = {
    "을(를)": ("을", "를", "을"), "이(가)": ("이", "가", "이"), "은(는)": ("은", "는", "은"),
    "와(과)": ("과", "와", "과"), "과(와)": ("과", "와", "과"), "(으)로": ("으로", "로", "로"),
}
_SKIPPED = "'\"’”)]»›"
# The last sound of a number read in Korean: 영 일 이 삼 사 오 육 칠 팔 구 (0 ends 십,
# 백, 천 or 만 in 10, 100...: a final consonant too).
_DIGIT_ENDINGS = {"0": "final", "1": "rieul", "2": "vowel", "3": "final", "4": "vowel",
                  "5": "vowel", "6": "final", "7": "rieul", "8": "rieul", "9": "vowel"}


def _ending(char: str) -> str | None:
    if "가" <= char <= "힣":
        final = (ord(char) - ord("가")) % 28
        return "vowel" if final == 0 else "rieul" if final == 8 else "final"
    return _DIGIT_ENDINGS.get(char)


def korean_particles(text: str) -> str:
    """`15을(를)` as `15를`, `카드이(가)` as `카드가`: each written pair resolved by the
    sound before it, where that sound is known."""
    def choose(match: re.Match[str]) -> str:
        at = match.start() - 1
        while at >= 0 and text[at] in _SKIPPED:
            at -= 1
        ending = _ending(text[at]) if at >= 0 else None
        if ending is None:
            return match.group(0)
        after_final, after_vowel, after_rieul = _PARTICLE_FORMS[match.group(0)]
        return {"final": after_final, "vowel": after_vowel, "rieul": after_rieul}[ending]

    return _PARTICLES.sub(choose, text)


def ngettext(singular: str, plural: str, count: int, lang: str | None = None,
             **values: Any) -> str:
    """The form for `count` (Korean has one form; English two), `{count}` filled."""
    code = lang or current_language()
    plural_index = _read(code)[1]
    forms = _catalogue(code).get(singular)  # a plugin's own plural words too
    if isinstance(forms, tuple) and all(forms):
        text = forms[min(plural_index(count), len(forms) - 1)]
    else:
        text = singular if count == 1 else plural
    text = text.format(count=format_number(count, code), **values)
    return korean_particles(text) if code == "ko" else text


def words_text(words: Words | Exception | str, lang: str | None = None, *,
               keys: bool = False) -> str:
    """What an engine said (`Words`, or an error carrying them) in `lang`.

    Engines cannot reach the catalogue, so their errors carry a message id and
    values (`pyramids.core.errors`); a value that is itself `Words` or an error is
    translated too. A plain string (or any other exception) is shown as it is.
    An option named in the message (`OptionRef`) reads in words ("Turn order “Lowest
    score moves next”"), or with `keys` as the key typed (`turn_order=behind`): for
    the command line, where the player gave options that way.
    """
    if isinstance(words, PyramidsError):
        words = words.words
    if not isinstance(words, Words):
        return str(words)
    values = {name: _value_text(value, lang, keys) for name, value in words.values.items()}
    if isinstance(words, PluralWords):
        count = int(words.values["count"])
        del values["count"]
        return ngettext(words.msgid, words.plural, count, lang, **values)
    return gettext(words.msgid, lang, **values)


def _value_text(value: Any, lang: str | None, keys: bool) -> Any:
    if isinstance(value, (Words, PyramidsError)):
        return words_text(value, lang, keys=keys)
    if isinstance(value, KeyedWords):
        return words_text(value.keys if keys else value.words, lang, keys=keys)
    if isinstance(value, Number):
        return str(value) if keys else format_number(value.value, lang)
    if isinstance(value, (OptionRef, OptionList)):
        if keys:
            return str(value)
        # Imported here: the option words translate with this module's `_`.
        from pyramids.play.option_words import option_text

        return option_text(value, lang)
    return value


def format_number(value: float, lang: str | None = None) -> str:
    """`12345` as `12,345` in English and Korean (Babel's locale rules)."""
    return str(format_decimal(value, locale=lang or current_language()))


def catalogue_json(lang: str) -> dict[str, Any]:
    """The catalogue for the browser: `{lang, messages: {msgid: text or [forms]}}`."""
    code = check_language(lang)
    messages = {
        key: list(value) if isinstance(value, tuple) else value
        for key, value in _catalogue(code).items()
        if value
    }
    return {"lang": code, "languages": LANGUAGE_NAMES, "messages": messages}


__all__ = [
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "UnknownLanguageError",
    "catalogue_json",
    "check_language",
    "current_language",
    "format_number",
    "gettext",
    "korean_particles",
    "negotiate",
    "ngettext",
    "set_language",
    "words_text",
]
