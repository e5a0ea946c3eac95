"""The ``--lang`` option of the commands that write HTML (``honba audit --html``, ``honba tournament
sheet``, ``honba standings --format html``, ``honba needs --format html``): the page's own words in
English or Japanese, from the catalogue the web's pages use (``replay.html.words``)."""

from __future__ import annotations

from typing import Annotated

import typer

from replay.html.words import DEFAULT, LANGUAGES
from replay.input.parsing import InputError

Lang = Annotated[
    str,
    typer.Option("--lang", help="The language of the HTML written: en (English) or ja (Japanese)."),
]


def html_language(lang: str) -> str:
    """The language ``--lang`` names; one honba has no catalogue for is refused (exit 2)."""
    if lang not in LANGUAGES:
        raise InputError(f"--lang must be {' or '.join(LANGUAGES)}, not {lang!r}")
    return lang


__all__ = ["DEFAULT", "Lang", "html_language"]
