"""The web pages' languages: Japanese and English, chosen per request.

The catalogues are gettext ``.po`` files under ``replay/web/locale/`` (the English text is the
message id, so English needs none), compiled with Babel's API when first loaded (no ``.mo`` file to
build or commit: a fresh clone serves Japanese as it is; ``replay.html.words``, which the HTML
exports share). The language of a request is its
``?lang=`` (which the page's switch sends, and a cookie keeps), else the cookie, else the best of the
browser's ``Accept-Language``, else English. Numbers are written by Babel's rules for the language.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import lru_cache

from babel import Locale, negotiate_locale
from babel.numbers import format_decimal

from domain.integrity import UNSORTED, json_exactly
from domain.said import Listed, Said

# The catalogues and their loading are the HTML exports' too (``replay.html.words``).
from replay.html.words import DEFAULT, LANGUAGES, LOCALE_DIR, SAID_FIRST, translations

__all__ = [
    "COOKIE",
    "DEFAULT",
    "LANGUAGES",
    "LOCALE_DIR",
    "NAMES",
    "chosen",
    "json_spoken",
    "number",
    "said_here",
    "say",
    "spoken",
    "translations",
]

COOKIE = "honba_lang"
# What each language is called in its own words, for the switch.
NAMES = {"en": "English", "ja": "日本語"}


def say(value: Said | Listed | str, language: str) -> str:
    """What the service said (``domain.said.Said``, ``Listed``), in ``language``: each template
    looked up in the language's catalogues (the English where one has none), its fields filled in,
    words in their turn; data in the fields (names, notes, quoted input) as it is. Plain text (a
    message not given as words) is as it is."""
    if isinstance(value, Said | Listed):
        return value.spoken(translations(language, SAID_FIRST).gettext)
    return value


def said_here(value: object, language: str) -> object:
    """A value a template shows: words said in ``language`` (Jinja's ``finalize``), anything else as it is."""
    return say(value, language) if isinstance(value, Said | Listed) else value


def spoken(data: object, language: str | Callable[[], str]) -> object:
    """Plain data (a JSON body) with every ``Said`` in it said in ``language``: a language, or how
    to find it (a request's), asked only when the data holds words (a hand's answer holds none, and
    negotiating a request's language reads its query, cookies and headers: issue 36)."""
    if isinstance(data, Said | Listed):
        return say(data, language if isinstance(language, str) else language())
    if isinstance(data, dict):
        return {key: spoken(value, language) for key, value in data.items()}
    if isinstance(data, list | tuple):
        return [spoken(value, language) for value in data]
    return data


# What ``say`` says (a tuple: ``isinstance`` with ``Said | Listed`` makes the union again at each call).
_WORDS = (Said, Listed)


def json_spoken(data: object, language: str | Callable[[], str]) -> bytes:
    """``spoken(data, language)`` as a JSON answer's body, the bytes Starlette's ``JSONResponse``
    writes (compact, UTF-8, no NaN): the encoder meets each ``Said`` itself (its ``default``), where
    ``spoken`` made a copy of the data in Python first (about 0.1 million instructions of a recorded
    hand's answer, issue 36's seventeenth round); data without words, orjson where it writes the
    same bytes. Anything the standard encoder cannot write is refused as it was (``TypeError``,
    ``ValueError``), but for an ``Enum`` neither text nor a number, which orjson writes as its value
    (no answer holds one: the service gives plain data)."""
    # Plain data (a hand's answer: text, numbers, null) written by orjson where its bytes are the
    # standard encoder's (``domain.integrity.json_exactly``, which the stored events are written by).
    found = json_exactly(data, UNSORTED, kept=False)
    if found is not None:
        return found
    said_in: list[str] = []

    def words(value: object) -> object:
        if isinstance(value, _WORDS):
            if not said_in:  # the request's language found once, and only for an answer with words
                said_in.append(language if isinstance(language, str) else language())
            return say(value, said_in[0])
        raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")

    text = json.dumps(data, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":"), default=words)
    return text.encode("utf-8")


def chosen(query: str | None, cookie: str | None, accept: str | None) -> str:
    """The language of a request: ``?lang=`` when it names one honba has, else the cookie's, else
    the browser's first choice honba has (``Accept-Language``, by its q-values), else English."""
    for said in (query, cookie):
        if said in LANGUAGES:
            return str(said)
    wanted = []
    for part in (accept or "").split(","):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        if tag and quality > 0:
            wanted.append((quality, tag.strip()))
    preferred = [tag.replace("-", "_") for _, tag in sorted(wanted, key=lambda pair: -pair[0])]
    return negotiate_locale(preferred, list(LANGUAGES), sep="_") or DEFAULT


def number(value: object, language: str) -> object:
    """A whole number as the language writes it (25,000 in both; Babel's rules), anything else as it is."""
    if isinstance(value, int) and not isinstance(value, bool):
        return _written(value, language)
    return value


# A page writes the same few scores and payments many times (a long match's ledger, 1,200 numbers
# at 300 hands), and Babel's formatting of one costs about as much as the rest of its line: each
# is written once per language.
@lru_cache(maxsize=8192)
def _written(value: int, language: str) -> str:
    return format_decimal(value, locale=Locale.parse(language))
