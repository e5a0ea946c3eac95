"""The web pages' languages: Japanese and English, chosen per request.

The catalogues are gettext ``.po`` files under ``replay/web/locale/`` (the English text is the
message id, so English needs none), compiled with Babel's API when first loaded (no ``.mo`` file to
build or commit: a fresh clone serves Japanese as it is). The language of a request is its
``?lang=`` (which the page's switch sends, and a cookie keeps), else the cookie, else the best of the
browser's ``Accept-Language``, else English. Numbers are written by Babel's rules for the language.
"""

from __future__ import annotations

import functools
import gettext
import io
from pathlib import Path

from babel import Locale, negotiate_locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
LANGUAGES = ("en", "ja")
DEFAULT = "en"
COOKIE = "honba_lang"
# What each language is called in its own words, for the switch.
NAMES = {"en": "English", "ja": "日本語"}


@functools.cache
def translations(language: str) -> gettext.NullTranslations:
    """The catalogue of ``language`` (the English ids themselves for English), compiled once."""
    path = LOCALE_DIR / language / "LC_MESSAGES" / "messages.po"
    if language == DEFAULT or not path.exists():
        return gettext.NullTranslations()
    with path.open("rb") as po:
        catalog = read_po(po, locale=language)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


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
        return format_decimal(value, locale=Locale.parse(language))
    return value
