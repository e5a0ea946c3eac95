"""What honba says to a person, as a value: an English template with named fields.

A sentence the service or the rules form (what a hand was, why an entry is refused) is a ``Said``:
its ``str()`` is the English sentence every front end printed before (the command line, the JSON
shapes and the logs keep it byte for byte), and a front end that speaks another language looks the
template up in its catalogue (the template is the message id) and fills in the same fields. A field
is data (a name, a note, a quoted input: never translated, escaped where it is shown), a number, or
another ``Said`` (a word of the game, a hand value), translated in its turn; ``Listed`` is several
of them between separators. The text is formed once, here where it is said: a front end never words
it again, it only chooses the language.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeAlias

import attrs

# What a field holds: data, a number, or more words.
Field: TypeAlias = "str | int | Said | Listed"


@attrs.frozen(init=False)
class Said:
    """A sentence: ``template`` (English, ``str.format`` fields by name: ``{hand}``, ``{amount:,}``)
    and its ``fields`` by name. ``str()`` is the English sentence."""

    template: str
    fields: tuple[tuple[str, Field], ...]

    def __init__(self, template: str, /, **fields: Field) -> None:
        self.__attrs_init__(template, tuple(sorted(fields.items())))

    def __str__(self) -> str:
        return self.spoken(lambda template: template)

    def mapped(self, change: Callable[[Field], Field]) -> Said:
        """The same sentence with each field changed by ``change`` (a name said otherwise)."""
        changed = object.__new__(Said)
        changed.__attrs_init__(self.template, tuple((name, change(value)) for name, value in self.fields))
        return changed

    def spoken(self, look_up: Callable[[str], str]) -> str:
        """The sentence with each template (its own and its fields') replaced by ``look_up``'s (a
        catalogue's ``gettext``: the English template itself where it has none)."""
        values = {name: _spoken(value, look_up) for name, value in self.fields}
        return look_up(self.template).format(**values)


@attrs.frozen
class Listed:
    """Several fields between separators (``"; "``, ``", "``), each said in its turn; ``empty``
    when there are none (``nobody``)."""

    items: tuple[Field, ...]
    separator: str = ", "
    empty: Field = ""

    def __str__(self) -> str:
        return self.spoken(lambda template: template)

    def spoken(self, look_up: Callable[[str], str]) -> str:
        """The items said with ``look_up`` (``Said.spoken``), between the separators."""
        if not self.items:
            return str(_spoken(self.empty, look_up))
        return self.separator.join(str(_spoken(item, look_up)) for item in self.items)


def _spoken(value: Field, look_up: Callable[[str], str]) -> str | int:
    if isinstance(value, Said | Listed):
        return value.spoken(look_up)
    # A number keeps its type, so that a template's format (``{amount:,}``) applies to it.
    return value


def listed(items: Iterable[Field], separator: str = ", ", empty: Field = "") -> Listed:
    """``Listed`` of ``items``."""
    said: tuple[Field, ...] = tuple(items)
    return Listed(said, separator, empty)


def one_of(choices: Iterable[Field]) -> Field:
    """Choices, one of which is wanted (at least one): ``a or b or c`` in English, each said in its
    turn (an option's name is data); one choice alone is itself."""
    items = list(choices)
    said = items[-1]
    for choice in reversed(items[:-1]):
        said = Said("{choice} or {others}", choice=choice, others=said)
    return said


def said_data(value: Field) -> object:
    """Words as plain JSON data, to be said again later in any language (a stored view keeps a
    damage so): a ``Said`` as ``{"said": template, "fields": {...}}``, a ``Listed`` as ``{"listed":
    [...], "separator": ..., "empty": ...}``, each field in its turn; data (text, a number) as it is."""
    if isinstance(value, Said):
        return {"said": value.template, "fields": {name: said_data(field) for name, field in value.fields}}
    if isinstance(value, Listed):
        return {
            "listed": [said_data(item) for item in value.items],
            "separator": value.separator,
            "empty": said_data(value.empty),
        }
    return value


def said_from_data(data: object) -> Field:
    """The words ``said_data`` made of them, the same again (their ``str()`` the same English)."""
    if isinstance(data, dict) and "said" in data:
        # Made as ``mapped`` makes one: the template was written out where the words were first said.
        words = object.__new__(Said)
        fields = tuple(sorted((str(name), said_from_data(field)) for name, field in data["fields"].items()))
        words.__attrs_init__(str(data["said"]), fields)
        return words
    if isinstance(data, dict) and "listed" in data:
        items = tuple(said_from_data(item) for item in data["listed"])
        return Listed(items, str(data["separator"]), said_from_data(data["empty"]))
    if isinstance(data, str | int):
        return data
    raise ValueError(f"not words: {data!r}")
