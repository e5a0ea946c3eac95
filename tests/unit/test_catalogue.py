"""The Japanese catalogue of the pages' own words (replay/web/locale/ja/LC_MESSAGES/messages.po) is
complete: every message the templates (Babel's jinja2 extractor) and the Python page builders
(Babel's Python extractor: ``replay/html/*.py``, ``replay/web/*.py``) mark has its Japanese, with
the same placeholders; no message is marked where the extractor cannot see it (inside an f-string);
and the check catches a translation taken out of a copy of the catalogue.
"""

from __future__ import annotations

import re
import tokenize
from pathlib import Path

from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir, extract_from_file
from babel.messages.pofile import read_po
from conftest import REPO

from replay.html.words import LOCALE_DIR, translations, when

CATALOGUE = LOCALE_DIR / "ja" / "LC_MESSAGES" / "messages.po"
# The service's words (``domain.said.Said``) hold a few of the pages' texts around what the service
# said ("Not recorded: %(why)s."): a page's message is translated when either catalogue has it.
SERVICE_CATALOGUE = LOCALE_DIR / "ja" / "LC_MESSAGES" / "service.po"
TEMPLATES = (REPO / "replay" / "web" / "templates", REPO / "replay" / "html" / "templates")
BUILDERS = sorted([*(REPO / "replay" / "html").glob("*.py"), *(REPO / "replay" / "web").glob("*.py")])
# The builders say a message through ``words.gettext``/``ngettext`` (Babel's own keywords), ``N_``
# for one shown later, and ``said(words, MESSAGE, **values)`` (replay.html.pages): its second argument.
KEYWORDS = {**DEFAULT_KEYWORDS, "said": (2,)}


def marked() -> dict[str, str]:
    """Every message the templates and the page builders mark (its first form for a plural), with where."""
    found: dict[str, str] = {}
    for folder in TEMPLATES:
        for file, line, message, _comments, _context in extract_from_dir(
            str(folder), [("*.html", "jinja2")], options_map={"*.html": {"extensions": "jinja2.ext.i18n"}}
        ):
            found.setdefault(message if isinstance(message, str) else message[0], f"{folder.name}/{file}:{line}")
    for path in BUILDERS:
        for line, message, _comments, _context in extract_from_file("python", str(path), keywords=KEYWORDS):
            found.setdefault(message if isinstance(message, str) else message[0], f"{path.name}:{line}")
    return found


def untranslated(catalogue: Path) -> list[str]:
    """The marked messages ``catalogue`` (with the service's) gives no Japanese for, with where each is marked."""
    with catalogue.open("rb") as po:
        read = read_po(po, locale="ja")
    with SERVICE_CATALOGUE.open("rb") as po:
        service = read_po(po, locale="ja")

    def said(message: str) -> bool:
        for source in (read, service):
            entry = source.get(message)
            text = entry.string if entry is not None else ""
            if text if isinstance(text, str) else text and text[0]:
                return True
        return False

    return sorted(f"{where}: {message}" for message, where in marked().items() if not said(message))


def test_every_message_of_the_templates_and_page_builders_has_its_japanese() -> None:
    found = marked()
    # The templates' and the builders' (the audit report's, the score sheet's, the data's words).
    assert len(found) > 500
    assert {"Audit of %(key)s", "Score sheets: session %(session)s of %(name)s", "East", "confirmed"} <= set(found)
    assert untranslated(CATALOGUE) == []


def test_a_translation_taken_out_is_caught(tmp_path: Path) -> None:
    text = CATALOGUE.read_text(encoding="utf-8")
    taken = text.replace('msgstr "点数表: %(name)s 第 %(session)s 回戦"', 'msgstr ""', 1)
    assert taken != text
    copy = tmp_path / "messages.po"
    copy.write_text(taken, encoding="utf-8")
    # The one message whose Japanese was taken out, named with where it is marked.
    (missing,) = untranslated(copy)
    assert missing.startswith("sheet.py:") and missing.endswith(": Score sheets: session %(session)s of %(name)s")


def test_each_translation_names_the_same_places_and_no_message_is_given_twice() -> None:
    with CATALOGUE.open("rb") as po:
        read = read_po(po, locale="ja")
    for message in read:
        if message.pluralizable:
            # Japanese has one form for every count; each English form names the same values.
            forms = {frozenset(re.findall(r"%\(\w+\)s", form)) for form in (*message.id, *message.string)}
            assert len(forms) == 1, message.id
        elif message.id:
            assert sorted(re.findall(r"%\(\w+\)s", str(message.id))) == sorted(
                re.findall(r"%\(\w+\)s", str(message.string))
            ), message.id
    ids = re.findall(r'^msgid "(.*)"$', CATALOGUE.read_text(encoding="utf-8"), flags=re.M)
    assert sorted({i for i in ids if ids.count(i) > 1}) == []


def test_no_builder_marks_a_message_inside_an_f_string() -> None:
    # Babel's Python extractor reads an f-string as one token: a message said in one would be
    # missed by the check above and shown in English on a Japanese page.
    hidden = [
        f"{path.name}:{token.start[0]}"
        for path in BUILDERS
        for token in tokenize.generate_tokens(path.open(encoding="utf-8").readline)
        if token.type == tokenize.STRING
        and re.match(r"(?i)[rb]*f", token.string)
        and re.search(r"""(gettext\(|said\(\s*\w+\s*,)\s*['"]""", token.string)
    ]
    assert hidden == []


def test_the_catalogue_is_the_pages_japanese_and_english_is_the_ids() -> None:
    assert translations("ja").gettext("Score sheets: session %(session)s of %(name)s") == (
        "点数表: %(name)s 第 %(session)s 回戦"
    )
    assert translations("en").gettext("Ledger") == "Ledger"


def test_a_moment_is_written_as_each_language_writes_it() -> None:
    assert when("2026-11-29T09:30:00Z", "ja") == "2026/11/29 9:30:00 UTC"
    assert when("2026-11-29T18:30:00+09:00", "en") == "Nov 29, 2026, 9:30:00\u202fAM UTC"
    # Anything that is not a moment with its offset is shown as it is.
    assert when("2026-11-29T09:30:00", "ja") == "2026-11-29T09:30:00"
    assert when("yesterday", "ja") == "yesterday"


def malformed(text: str) -> list[int]:
    """The lines (from 1) of a catalogue where an entry is not one ``msgid`` then one ``msgstr``
    (each perhaps continued on ``"..."`` lines): a ``msgstr`` without its ``msgid``, a ``msgid``
    without its ``msgstr``. Babel reads such a file without a word and keeps one of the two texts;
    a merge of two branches' entries (union) once left a second ``msgstr`` under another message."""
    wrong = []
    last = ""  # the last keyword read
    for number, line in enumerate(text.splitlines(), 1):
        keyword = line.split(" ", 1)[0]
        if keyword == "msgid":
            ok = last in ("", "msgstr") or last.startswith("msgstr[")
        elif keyword == "msgid_plural":
            ok = last == "msgid"
        elif keyword in ("msgstr", "msgstr[0]"):
            ok = last in ("msgid", "msgid_plural")
        elif keyword.startswith("msgstr["):
            ok = last.startswith("msgstr[")
        else:
            continue
        if not ok:
            wrong.append(number)
        last = keyword
    if last in ("msgid", "msgid_plural"):
        wrong.append(len(text.splitlines()))
    return wrong


def test_a_catalogue_entry_with_two_translations_is_caught() -> None:
    good = 'msgid "a"\nmsgstr "あ"\n\nmsgid ""\n"b"\nmsgstr ""\n"い"\n'
    assert malformed(good) == []
    assert malformed(good.replace('msgstr "あ"\n', 'msgstr "あ"\nmsgstr "う"\n')) == [3]
    assert malformed('msgid "a"\n') == [1]


def test_each_catalogue_is_one_msgid_then_one_msgstr_an_entry() -> None:
    for catalogue in (CATALOGUE, SERVICE_CATALOGUE):
        assert malformed(catalogue.read_text(encoding="utf-8")) == [], catalogue.name
