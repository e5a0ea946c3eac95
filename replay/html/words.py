"""The words of honba's pages in a language: the catalogue the web's pages and the HTML exports share.

A page builder in Python (the audit report, the score sheets) takes a ``Words``, the catalogue of
its language (``translations``), and says every text of its own through it (``words.gettext``,
``words.ngettext``): the English text is the message id, so English is the ids themselves
(``ENGLISH``). The catalogues are gettext ``.po`` files under ``replay/web/locale/`` (``messages.po``
for the templates and the builders, ``service.po`` for what the service says), compiled with Babel's API when
first loaded: nothing to build. ``replay/web/i18n.py`` chooses a request's language; the
exports take theirs from ``--lang``.
"""

from __future__ import annotations

import functools
import gettext
import io
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

# The catalogues sit beside the web's templates, which were translated first (package data there).
LOCALE_DIR = Path(__file__).resolve().parent.parent / "web" / "locale"
LANGUAGES = ("en", "ja")
DEFAULT = "en"


class Words(Protocol):
    """A catalogue as a page builder uses it (``gettext.NullTranslations`` and its subclasses are one)."""

    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, msgid1: str, msgid2: str, n: int, /) -> str: ...


ENGLISH: Words = gettext.NullTranslations()


# The catalogues of a language: the pages' own texts (``messages``), and what the service and the
# rules say (``service``: the templates of ``domain.said.Said``, what a hand was, the refusals), kept
# apart so that each is edited on its own; a language's translations are both, the pages' first for
# a page's text, the service's first for its words (a word both have, "points", is each one's own).
CATALOGUES = ("messages", "service")
SAID_FIRST = ("service", "messages")


@functools.cache
def translations(language: str, catalogues: tuple[str, ...] = CATALOGUES) -> gettext.NullTranslations:
    """The catalogues of ``language`` as one, the first's translation first (the English ids
    themselves for English), compiled once."""
    if language == DEFAULT:
        return gettext.NullTranslations()
    # Babel's reader only where a language other than English is asked for (a command in English
    # does not load it).
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    merged: gettext.NullTranslations | None = None
    for name in catalogues:
        path = LOCALE_DIR / language / "LC_MESSAGES" / f"{name}.po"
        if not path.exists():
            continue
        with path.open("rb") as po:
            catalog = read_po(po, locale=language)
        compiled = io.BytesIO()
        write_mo(compiled, catalog)
        compiled.seek(0)
        loaded = gettext.GNUTranslations(compiled)
        if merged is None:
            merged = loaded
        else:
            merged.add_fallback(loaded)
    return merged or gettext.NullTranslations()


def when(text: str, language: str) -> str:
    """A moment the service gives in ISO 8601 with its offset (``2026-11-29T09:30:00Z``) as the
    language writes it (Babel's medium form, in UTC: "Nov 29, 2026, 9:30:00 AM UTC", "2026/11/29
    9:30:00 UTC"); anything else as it is."""
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return text
    if moment.tzinfo is None:
        return text
    # Babel's dates only where a moment is shown.
    from babel.dates import format_datetime

    return format_datetime(moment, "medium", tzinfo=UTC, locale=language) + " UTC"


def N_(message: str) -> str:
    """A text marked for the catalogue (Babel's extractor finds it) but translated where it is shown."""
    return message


# Words the service gives as values (the winds, where a sign-off stands, what a digest is, a
# player's place in a staged event), which the pages translate where they show them (``_(value)``):
# marked here so that the catalogue has them and the test of its completeness sees them.
FROM_DATA = (
    N_("East"),
    N_("South"),
    N_("West"),
    N_("North"),
    N_("confirmed"),
    N_("disputed"),
    N_("unconfirmed"),
    N_("match head digest"),
    N_("advanced"),
    N_("cut"),
)
