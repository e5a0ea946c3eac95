"""The text fields every front end sends for an entry, read into the one entry model and written back.

The command line's options, the table page's and the referee's forms, the JSON API and
``honba amend --set`` all describe a result or a penalty with the same fields (``docs/web.md``,
"The entry fields"): ``winner``, ``value`` (``3/30``, ``mangan``, ``4faan``), ``discarder``,
``riichi``, ``facts2``, ``penalties3``, ... ``entry_from_fields`` reads them into an ``Entry``
(``replay.input.entry``), ``entry_fields`` writes an entry back (what a confirm step sends
again, what a correction's form is filled with: the two are inverse), ``amended`` changes some
fields of an entry and keeps the rest. Fields are read, never judged: a field that cannot be read
is refused by its name (``FieldError``); what a result must satisfy the domain says.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from domain.bounds import ENTRY, TEXT, Bound, OutOfBounds, shown
from domain.bounds import whole_number as read_number
from domain.said import Said
from domain.values import LIMIT_NAMES, HandValue, PenaltyShare, WinFacts
from replay.input.entry import (
    FLAG_KEYS,
    KINDS,
    MAX_COUNT,
    MAX_POINTS,
    VALUE_KEYS,
    Entry,
    FieldError,
    HandPenaltyEntry,
    WinEntry,
    bound_of,
)
from replay.input.parsing import InputError, parse_value

# At most every other player of a four-player table wins on one discard.
MAX_WINNERS = 3
# The win's facts by the names of their text fields; the facts that are true or false are listed
# by name in ``facts``, the hand's penalties in ``penalties`` (``PLAYER:AMOUNT``).
FACT_FIELDS = {
    "winning_tile": "tile",
    "discards": "discards",
    "melded_sets": "melded",
    "predealt_jokers": "jokers",
    "special_hands": "special",
}
# A value's fields one by one (the dora apart: they go with a value given as text too).
VALUE_FIELDS = tuple(k for k in VALUE_KEYS if k != "dora")
# Every field of one winner (with the winner's suffix).
WINNER_FIELDS = (
    "winner",
    "value",
    *VALUE_KEYS,
    "discarder",
    "pao",
    "facts",
    "penalties",
    "loser_scores",
    *FACT_FIELDS.values(),
)
# A field holds one line of text of at most ``TEXT.longest`` characters (``domain.bounds.TEXT``: a
# note, a reason), and a list at most this many items (no entry has more).
MAX_ITEMS = 64
# The number of an entry of a match's log (its line in the exported record file): the domain's bound.
MAX_ENTRY = ENTRY.high
_HAND_PENALTY = re.compile(r"^(?P<payer>.+?):(?P<amount>-?[0-9]+)(?::(?P<note>.*))?$", re.DOTALL)


def slot(index: int) -> str:
    """The suffix of the fields of the winner at ``index`` (from 0): ``""``, ``"2"``, ``"3"``."""
    return "" if index == 0 else str(index + 1)


# Reading the text fields.


def whole_number(field: str | Said, raw: Any, *, low: int | None = None, high: int = MAX_COUNT) -> int:
    """A whole number a person or a client sent: a JSON number, or text read by the domain's one
    reader of numbers (``domain.bounds.whole_number``: ASCII digits, a sign where the range goes
    below zero, a length cap), within ``high`` either way (or from ``low``): by default the record
    line's bounds, so that text and a record line read alike; the range each count has (no
    negative dora, a positive amount, ``domain.bounds``) the domain checks when the entry is
    recorded, for both alike."""
    bound = Bound(field, -high if low is None else low, high)
    try:
        if isinstance(raw, int) and not isinstance(raw, bool):
            return bound.check(raw)
        return read_number(raw, bound)
    except OutOfBounds as exc:
        raise FieldError(str(field), exc.said) from None


def _text(fields: Mapping[str, Any], name: str) -> str:
    value = fields.get(name)
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        # A form sent twice keeps its last (``form_of``): a list here is a client's (a JSON body's),
        # for a field that takes one value; read as its last item it stored "y" of ["x", "y"].
        raise FieldError(name, Said("{value} is a list: this field takes one value", value=shown(value)))
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise FieldError(name, Said("{value} is not text", value=shown(value)))
    text = str(value).strip()
    try:
        # One line of printable text of a bounded length, as the domain holds every name and note to.
        return TEXT.check(text, name)
    except OutOfBounds as exc:
        raise FieldError(name, exc.said) from None


# The fields that hold several items (a form sends them once per item: ``form_of`` keeps them as
# lists), by their names without a winner's suffix; the players' lists take an item as it is
# (a name may hold a comma), the others also split an item at its commas (a typed list).
PLAYER_LISTS = ("riichi", "ready", "nagashi", "kongs", "penalties")
VALUE_LISTS = ("facts", "special", "discards", "loser_scores")


def is_list_field(name: str) -> bool:
    """Whether a text field holds several items (``riichi``, ``facts2``, ...)."""
    return name.rstrip("23") in (*PLAYER_LISTS, *VALUE_LISTS)


def _items(fields: Mapping[str, Any], name: str) -> tuple[str, ...]:
    """A list field: a list (repeated form fields, a JSON list), or text with the items between
    commas; an item of a list of values is split at its commas too."""
    value = fields.get(name)
    if value is None:
        return ()
    if isinstance(value, list | tuple):
        raw = list(value)
        if name.rstrip("23") in VALUE_LISTS:
            raw = [part for item in raw for part in (item.split(",") if isinstance(item, str) else [item])]
    else:
        raw = _text(fields, name).split(",")
    if len(raw) > MAX_ITEMS:
        raise FieldError(
            name, Said("{name}: {count:,} items, at most {most}", name=name, count=len(raw), most=MAX_ITEMS)
        )
    items = []
    for item in raw:
        text = _text({name: item}, name)
        if text:
            items.append(text)
    return tuple(items)


def _optional(fields: Mapping[str, Any], name: str) -> str | None:
    return _text(fields, name) or None


def entry_from_fields(fields: Mapping[str, Any]) -> Entry:
    """The entry plain text fields describe (form fields, a JSON body, the command line's options):
    the fields of ``docs/web.md``. A field that cannot be read is refused by its name."""
    kind = _text(fields, "kind")
    if kind == "undo":
        return Entry("undo")
    if kind == "end":
        reason = _text(fields, "reason")
        if not reason:
            raise FieldError("reason", Said("say why the match ends early (agreed, time limit)"))
        return Entry("end", reason=reason)
    if kind == "win":
        wins = tuple(w for w in (_win_from_fields(fields, slot(i)) for i in range(MAX_WINNERS)) if w is not None)
        if not wins:
            raise FieldError("winner", Said("choose the winner"))
        return Entry("win", wins=wins, riichi=_items(fields, "riichi"))
    if kind == "draw":
        return Entry(
            "draw", ready=_items(fields, "ready"), riichi=_items(fields, "riichi"), nagashi=_items(fields, "nagashi")
        )
    if kind == "abort":
        return Entry(
            "abort", abort=_text(fields, "abort"), riichi=_items(fields, "riichi"), kongs=_items(fields, "kongs")
        )
    if kind == "penalty":
        amount = _text(fields, "amount")
        share = _optional(fields, "share")
        if share is not None and share not in {s.value for s in PenaltyShare}:
            raise FieldError(
                "share", Said("the share is to_others, reverse_mangan or off_table, not {share}", share=shown(share))
            )
        return Entry(
            "penalty",
            player=_optional(fields, "player"),
            amount=whole_number("amount", amount, high=MAX_POINTS) if amount else None,
            penalty_kind=_text(fields, "penalty_kind") or "chombo",
            share=share,
            note=_text(fields, "note"),
        )
    raise FieldError("kind", Said("choose what happened ({kinds})", kinds=", ".join((*KINDS, "undo", "end"))))


def _win_from_fields(fields: Mapping[str, Any], s: str) -> WinEntry | None:
    winner = _text(fields, f"winner{s}")
    value_given = _text(fields, f"value{s}") or any(_text(fields, f"{k}{s}") for k in VALUE_FIELDS)
    if not winner:
        if value_given and s:
            raise FieldError(f"winner{s}", Said("choose this winner, or clear the hand value given for them"))
        if value_given:
            raise FieldError("winner", Said("choose the winner"))
        return None
    discarder = _optional(fields, f"discarder{s}") if s and f"discarder{s}" in fields else None
    return WinEntry(
        winner=winner,
        value=_value(fields, s),
        discarder=discarder or _optional(fields, "discarder"),
        pao=_optional(fields, f"pao{s}"),
        facts=_facts(fields, s),
        penalties=tuple(_hand_penalty(item, f"penalties{s}") for item in _items(fields, f"penalties{s}")),
        loser_scores=tuple(
            whole_number(f"loser_scores{s}", item, high=MAX_POINTS) for item in _items(fields, f"loser_scores{s}")
        ),
    )


def _value(fields: Mapping[str, Any], s: str) -> HandValue:
    text = _text(fields, f"value{s}")
    given = {k: _text(fields, f"{k}{s}") for k in VALUE_FIELDS}
    given = {k: v for k, v in given.items() if v}
    if text and given:
        raise FieldError(
            f"value{s}",
            Said("give the hand value as text (e.g. 3/30) or field by field (han, fu, limit ...), not both"),
        )
    if text:
        try:
            value = parse_value(text)
        except InputError as exc:
            raise FieldError(f"value{s}", exc.said) from None
    else:
        parts: dict[str, Any] = {}
        for name, raw in given.items():
            if name == "limit":
                if raw not in LIMIT_NAMES:
                    limits = ", ".join(LIMIT_NAMES)
                    raise FieldError(
                        f"value{s}", Said("the limit is one of {limits}, not {value}", limits=limits, value=shown(raw))
                    )
                parts[name] = raw
            else:
                parts[name] = whole_number(f"{name}{s}", raw, high=bound_of(name))
        value = HandValue(**parts)
    dora = _text(fields, f"dora{s}")
    return attrs.evolve(value, dora=whole_number(f"dora{s}", dora, high=bound_of("dora"))) if dora else value


def _facts(fields: Mapping[str, Any], s: str) -> WinFacts:
    flags = _items(fields, f"facts{s}")
    unknown = [f for f in flags if f not in FLAG_KEYS]
    if unknown:
        facts = ", ".join(FLAG_KEYS)
        raise FieldError(
            f"facts{s}", Said("unknown fact {fact} (the facts are {facts})", fact=shown(unknown[0]), facts=facts)
        )
    parts: dict[str, Any] = {name: True for name in flags}
    for field in attrs.fields(attrs.resolve_types(WinFacts)):
        name = FACT_FIELDS.get(field.name, field.name)
        if field.type is bool or field.name == "penalties":
            continue
        if field.type == tuple[str, ...]:
            parts[field.name] = _items(fields, f"{name}{s}")
        elif field.type is int:
            raw = _text(fields, f"{name}{s}")
            parts[field.name] = whole_number(f"{name}{s}", raw, high=bound_of(field.name)) if raw else 0
        else:
            parts[field.name] = _optional(fields, f"{name}{s}")
    return WinFacts(**parts)


def _hand_penalty(text: str, field: str) -> HandPenaltyEntry:
    found = _HAND_PENALTY.match(text)
    if found is None:
        raise FieldError(
            field, Said("write a hand's penalty as PLAYER:AMOUNT, e.g. Ben:100 (got {text})", text=shown(text))
        )
    amount = whole_number(field, found["amount"], high=MAX_POINTS)
    return HandPenaltyEntry(found["payer"].strip(), amount, (found["note"] or "").strip())


# Writing them back.


def value_text(value: HandValue) -> str | None:
    """A hand value (but its dora) as the text ``parse_value`` reads back to exactly that value
    (``3/30``, ``6han``, ``mangan``, ``2xyakuman``, ``4faan``, ``40pts x 3dbl``); ``""`` for no
    value; None when no text says it exactly (it is written field by field)."""
    core = attrs.evolve(value, dora=None)
    if core == HandValue():
        return ""
    v = core
    if v.limit == "yakuman":
        text = "yakuman" if v.multiple == 1 else f"{v.multiple}xyakuman"
    elif v.limit is not None:
        text = v.limit
    elif v.han is not None:
        text = f"{v.han}/{v.fu}" if v.fu is not None else f"{v.han}han"
    elif v.faan is not None:
        text = f"{v.faan}faan"
    elif v.tai is not None:
        text = f"{v.tai}tai"
    elif v.points is not None:
        text = f"{v.points}pts x {v.doubles}dbl" if v.doubles is not None else f"{v.points}points"
    elif v.doubles is not None:
        text = f"{v.doubles}doubles"
    else:
        return None
    try:
        return text if parse_value(text) == core else None
    except InputError:
        return None


def entry_fields(entry: Entry) -> dict[str, Any]:
    """The text fields of an entry (lists for the fields that hold several), fields at their
    default left out: ``entry_from_fields`` reads them back to the same entry."""
    out: dict[str, Any] = {"kind": entry.kind}
    if entry.kind == "win":
        first = entry.wins[0].discarder if entry.wins else None
        if first is not None:
            out["discarder"] = str(first)
        for i, win in enumerate(entry.wins):
            out.update(_win_fields(win, slot(i), first))
        if entry.riichi:
            out["riichi"] = [str(p) for p in entry.riichi]
    elif entry.kind in ("draw", "abort"):
        for name in ("ready", "riichi", "nagashi", "kongs"):
            if getattr(entry, name):
                out[name] = [str(p) for p in getattr(entry, name)]
        if entry.kind == "abort":
            out["abort"] = entry.abort
    elif entry.kind == "penalty":
        out["player"] = "" if entry.player is None else str(entry.player)
        if entry.amount is not None:
            out["amount"] = str(entry.amount)
        out["penalty_kind"] = entry.penalty_kind
        if entry.share is not None:
            out["share"] = entry.share
        if entry.note:
            out["note"] = entry.note
    elif entry.kind == "end":
        out["reason"] = entry.reason
    return out


def _win_fields(win: WinEntry, s: str, discarder: object) -> dict[str, Any]:
    out: dict[str, Any] = {f"winner{s}": str(win.winner)}
    if win.discarder != discarder:
        out[f"discarder{s}"] = "" if win.discarder is None else str(win.discarder)
    text = value_text(win.value)
    if text is None:
        for name in VALUE_FIELDS:
            item = getattr(win.value, name)
            if item is not None and not (name == "multiple" and item == 1):
                out[f"{name}{s}"] = str(item)
    elif text:
        out[f"value{s}"] = text
    if win.value.dora is not None:
        out[f"dora{s}"] = str(win.value.dora)
    if win.pao is not None:
        out[f"pao{s}"] = str(win.pao)
    flags = [name for name in FLAG_KEYS if getattr(win.facts, name)]
    if flags:
        out[f"facts{s}"] = flags
    for field in attrs.fields(WinFacts):
        item = getattr(win.facts, field.name)
        if field.name == "penalties" or field.name in FLAG_KEYS or item == field.default:
            continue
        name = FACT_FIELDS.get(field.name, field.name)
        out[f"{name}{s}"] = list(item) if isinstance(item, tuple) else str(item)
    if win.penalties:
        out[f"penalties{s}"] = [f"{p.payer}:{p.amount}" + (f":{p.note}" if p.note else "") for p in win.penalties]
    if win.loser_scores:
        out[f"loser_scores{s}"] = ",".join(str(n) for n in win.loser_scores)
    return out


def field_name(path: str) -> str:
    """The text field a place in an entry is written in: ``wins[1].from`` is ``discarder``,
    ``wins[1].han`` is ``value2``, ``wins[0].facts.penalties[0].payer`` is ``penalties``."""
    found = re.match(r"wins\[(\d+)\]\.?([a-z_]*)\.?([a-z_]*)", path)
    if found is None:
        return "winner" if path == "wins" else (path or "kind")
    s = slot(int(found[1]))
    part, inner = found[2], found[3]
    if part == "from":
        return "discarder"
    if part in VALUE_KEYS:
        return f"dora{s}" if part == "dora" else f"value{s}"
    if part == "facts":
        if inner in FLAG_KEYS:
            return f"facts{s}"
        return f"{FACT_FIELDS.get(inner, inner)}{s}" if inner else f"facts{s}"
    return f"{part or 'winner'}{s}"


# The text fields each kind of entry reads besides ``kind`` (``field_names``), made once: every entry
# the JSON API takes is checked against them (``refuse_unread``), and building the win's names again
# for each was about 3 % of a recorded hand's profiled CPU in the server (issue 36, sixth round).
_NAMED = {
    kind: frozenset({"kind", *named})
    for kind, named in {
        "win": {"riichi", *(f"{k}{slot(i)}" for i in range(MAX_WINNERS) for k in WINNER_FIELDS)},
        "draw": {"ready", "riichi", "nagashi"},
        "abort": {"abort", "riichi", "kongs"},
        "penalty": {"player", "amount", "penalty_kind", "share", "note"},
        "end": {"reason"},
    }.items()
}
_ONLY_KIND = frozenset({"kind"})


def field_names(kind: str) -> frozenset[str]:
    """The text fields an entry of this kind is read from (``entry_from_fields``; docs/web.md, "The
    entry fields"), ``kind`` among them."""
    return _NAMED.get(kind, _ONLY_KIND)


# "an undo entry", "an abort entry", "an end entry"; "a win entry".
_VOWELS = frozenset("aeiou")


def refuse_unread(fields: Mapping[str, Any], kind: str, also: Iterable[str] = ()) -> None:
    """``FieldError`` naming the first field an entry of ``kind`` does not read (nor one of ``also``,
    such as a request's ``client_key``): said, rather than dropped with nothing said."""
    known, besides = field_names(kind), frozenset(also)
    for name in fields:
        if name not in known and name not in besides:
            if name in FLAG_KEYS:
                said = Said(
                    "an {kind} entry has no field {field} (a fact such as {name} is set with facts={name})"
                    if kind[:1] in _VOWELS
                    else "a {kind} entry has no field {field} (a fact such as {name} is set with facts={name})",
                    kind=kind,
                    field=shown(name),
                    name=name,
                )
            else:
                said = Said(
                    "an {kind} entry has no field {field}"
                    if kind[:1] in _VOWELS
                    else "a {kind} entry has no field {field}",
                    kind=kind,
                    field=shown(name),
                )
            raise FieldError(name, said)


def amended(entry: Entry, changes: Mapping[str, Any]) -> Entry:
    """The entry with the fields ``changes`` gives changed and every other field kept: what a
    correction of some fields makes of the entry that stands. A field given empty is cleared; a
    hand value given (as text or field by field) replaces that winner's value whole; a winner
    cleared (``winner2=``) takes that winner's fields with it. A field the entry (of the kind it
    will be) does not read is refused by its name, rather than dropped with nothing said."""
    kind = changes.get("kind", entry.kind)
    refuse_unread(changes, kind if isinstance(kind, str) else entry.kind)
    fields = entry_fields(entry)
    for i in range(MAX_WINNERS):
        s = slot(i)
        if any(f"{k}{s}" in changes for k in ("value", *VALUE_FIELDS)):
            for k in ("value", *VALUE_FIELDS):
                fields.pop(f"{k}{s}", None)
        if s and changes.get(f"winner{s}") == "":
            for k in WINNER_FIELDS:
                fields.pop(f"{k}{s}", None)
    return entry_from_fields({**fields, **changes})
