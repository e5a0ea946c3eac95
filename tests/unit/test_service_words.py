"""What the service and the rules say as words (``domain.said``): the English of each sentence
unchanged, and every template said on a page given its Japanese in the service's catalogue
(``replay/web/locale/ja/LC_MESSAGES/service.po``), with the same fields.

The templates are read from the source with ``ast`` (nothing imported): every ``Said("...")`` in
``domain`` and ``replay``. A ``Said`` whose template is not written out where it is made (a name
held in a variable) could not be checked, so it is refused too.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from domain.said import Listed, Said, listed

ROOT = Path(__file__).resolve().parents[2]
SERVICE_PO = ROOT / "replay" / "web" / "locale" / "ja" / "LC_MESSAGES" / "service.po"
_FIELD = re.compile(r"\{(\w+)(?:[:!][^}]*)?\}")


def templates(root: Path = ROOT) -> tuple[dict[str, list[str]], list[str]]:
    """Every ``Said`` template in ``domain`` and ``replay`` with where it is made, and the places
    of a ``Said`` whose template is not written out there."""
    found: dict[str, list[str]] = {}
    unwritten: list[str] = []
    for package in ("domain", "replay"):
        for path in sorted((root / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Said"):
                    continue
                where = f"{path.relative_to(root)}:{node.lineno}"
                first = node.args[0] if node.args else None
                options = [first.body, first.orelse] if isinstance(first, ast.IfExp) else [first]
                for option in options:
                    if isinstance(option, ast.Constant) and isinstance(option.value, str):
                        found.setdefault(option.value, []).append(where)
                    else:
                        unwritten.append(where)
    return found, unwritten


def said_words(template: str) -> bool:
    """Whether a template says words of its own (``{hand} {what}`` says none: nothing to translate)."""
    return bool(re.search(r"[A-Za-z]", _FIELD.sub("", template)))


def untranslated(wanted: dict[str, list[str]], catalogue: Catalog) -> list[str]:
    """The templates that say words and have no translation in ``catalogue``, or one whose fields
    are not the template's own (a field left out, or one the sentence does not have)."""
    problems = []
    for template, places in sorted(wanted.items()):
        if not said_words(template):
            continue
        message = catalogue.get(template)
        if message is None or not message.string:
            problems.append(f"{template!r} (at {places[0]}): no Japanese")
        elif sorted(set(_FIELD.findall(template))) != sorted(set(_FIELD.findall(str(message.string)))):
            problems.append(f"{template!r} (at {places[0]}): the Japanese has other fields")
    return problems


def catalogue() -> Catalog:
    with SERVICE_PO.open("rb") as po:
        return read_po(po, locale="ja")


def test_every_template_is_written_where_it_is_said() -> None:
    found, unwritten = templates()
    assert len(found) > 100
    assert unwritten == []


def test_every_template_the_service_says_has_its_japanese_with_the_same_fields() -> None:
    found, _ = templates()
    assert untranslated(found, catalogue()) == []


def test_the_check_catches_a_translation_removed_or_a_field_lost() -> None:
    found, _ = templates()
    conflict = "{hand} was already recorded from another phone: {what}"
    assert conflict in found
    removed = catalogue()
    removed.delete(conflict)
    assert untranslated(found, removed) == [
        f"{conflict!r} (at {found[conflict][0]}): no Japanese",
    ]
    lost = catalogue()
    lost[conflict].string = "{hand} は別の端末で記録済みです"
    assert untranslated(found, lost) == [f"{conflict!r} (at {found[conflict][0]}): the Japanese has other fields"]


def test_the_catalogue_holds_no_template_nobody_says() -> None:
    found, _ = templates()
    # (a page's own words around what the service said are gettext texts, %(name)s: the pages' check)
    stale = sorted(m.id for m in catalogue() if m.id and m.id not in found and "%(" not in m.id)
    assert stale == []


def test_words_are_the_english_sentence_and_each_field_said_in_its_turn() -> None:
    value = Said("{winner} ron on {discarder}: {value}", winner="Ben", discarder="Ann", value=Said("mangan"))
    assert str(value) == "Ben ron on Ann: mangan"
    japanese = {"{winner} ron on {discarder}: {value}": "{winner} ロン ({discarder} 放銃): {value}", "mangan": "満貫"}
    assert value.spoken(lambda t: japanese.get(t, t)) == "Ben ロン (Ann 放銃): 満貫"
    # Data in a field is never looked up, even when it reads like a template.
    named = Said("deal passed to {player}", player="mangan")
    assert named.spoken(lambda t: japanese.get(t, t)) == "deal passed to mangan"


def test_a_number_keeps_its_format_and_a_list_its_separators_and_its_empty_word() -> None:
    assert str(Said("{amount:,} points", amount=12000)) == "12,000 points"
    assert str(listed(["Ann", "Ben"])) == "Ann, Ben"
    assert str(Listed((), ", ", Said("nobody"))) == "nobody"
    assert Listed((), ", ", Said("nobody")).spoken(lambda t: {"nobody": "なし"}.get(t, t)) == "なし"


@pytest.mark.parametrize("template", ["{a}", "{hand} {what}", "{a}; {b}"])
def test_a_template_of_fields_alone_needs_no_translation(template: str) -> None:
    assert not said_words(template)
