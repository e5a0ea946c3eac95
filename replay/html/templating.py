"""The Jinja templates of the reports, shared by the web pages and the HTML exports: one template per
report (``templates/standings_section.html`` is the standings, the tables in progress, the stages
and teams, what each player needs, the chart and the matches, on the public page of
``honba serve`` and in ``honba standings --format html`` alike).

The web's environment (``replay.web.site``) loads these templates beside its own and takes the
same filters (``add_filters``); an export renders them here, self-contained (its stylesheet inline,
no links into a server it is not served by).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape

from domain.said import Listed, Said
from replay.html.words import DEFAULT, SAID_FIRST, translations
from replay.service.common.shapes import not_counted_yet

TEMPLATES = Path(__file__).parent / "templates"


def add_filters(env: Environment) -> Environment:
    """The filters the report templates use: whole numbers with thousands separators (``points``),
    signed (``signed``), the note on matches still in progress (``not_counted_yet``)."""
    env.filters["points"] = lambda v: f"{v:,}" if isinstance(v, int) else v
    env.filters["signed"] = lambda v: f"{v:+,}" if isinstance(v, int) else v
    env.filters["not_counted_yet"] = not_counted_yet
    return env


def environment(language: str = DEFAULT) -> Environment:
    """The environment an export renders a report in, in ``language`` (``replay.html.words``; an
    export's ``--lang``): autoescaped (text from data is escaped)."""
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
        # The standings section is the web's too: its texts are marked for the catalogue the web
        # and the exports share (replay.html.words).
        extensions=["jinja2.ext.i18n"],
        # What the service said as words (the note on the matches in progress) in the export's language.
        finalize=lambda value: _said(value, language),
    )
    env.install_gettext_translations(translations(language), newstyle=True)  # type: ignore[attr-defined]
    env.globals["lang"] = language
    # Words given to a text's place or cut (the stages' sentence, a damaged match's line: ``why | say``),
    # in the export's language, as the web's ``say`` says them.
    env.filters["say"] = lambda value: _said(value, language)
    return add_filters(env)


def _said(value: object, language: str) -> object:
    if isinstance(value, Said | Listed):
        return value.spoken(translations(language, SAID_FIRST).gettext)
    return value


_ENV: dict[str, Environment] = {}


def render(template: str, language: str = DEFAULT, **context: Any) -> str:
    """A report's template rendered for an export in ``language`` (each language's environment made once)."""
    if language not in _ENV:
        _ENV[language] = environment(language)
    return _ENV[language].get_template(template).render(**context)
