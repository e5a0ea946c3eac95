"""The options of ``honba win``, ``draw``, ``abort``, ``penalty`` and ``amend`` as the text fields of
the one entry model (``replay.input.fields.entry_from_fields``, the fields of ``docs/web.md``).

The command line only says which field each option fills: the fields are read, and refused by
name, by the service, as the forms' and the API's are. With several winners an option about one
winner's hand names the winner first (``--dora Cho:2``, ``--pao Cho:Dai``, ``--fact Cho:first_turn``);
the flags (``--last-tile`` and the like) hold for every winner (one discard, one last tile).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any

import typer

from replay.input.fields import MAX_WINNERS, slot
from replay.input.parsing import InputError

# The options, shared by the recording commands and ``honba amend``'s replacement typed again.
From = Annotated[str | None, typer.Option("--from", help="The discarder; leave out for a self-drawn win.")]
Pao = Annotated[list[str] | None, typer.Option(help="The player liable (pao); with several winners WINNER:PLAYER.")]
Riichi = Annotated[str | None, typer.Option(help="Players whose riichi was accepted this hand, comma-separated.")]
Dora = Annotated[
    list[str] | None, typer.Option(help="Han from dora, which do not count toward a minimum ([WINNER:]N).")
]
LoserScores = Annotated[
    list[str] | None,
    typer.Option(help="Each seat's own hand score, in seat order, where losers settle ([WINNER:]a,b,c,d)."),
]
Special = Annotated[list[str] | None, typer.Option(help="A special hand claimed, e.g. heavenly_hand ([WINNER:]NAME).")]
Fact = Annotated[
    list[str] | None,
    typer.Option(
        help="A fact of one winner's win ([WINNER:]NAME): last_tile, supplement_tile, flower_supplement, "
        "robbed_kong, second_kong, first_turn, call_before_first_draw, supplements_to_ready, pung_hand."
    ),
]
FirstTurn = Annotated[bool, typer.Option(help="Out on the first draw or discard, before any call.")]
LastTile = Annotated[bool, typer.Option(help="Out on the last tile of the wall or the last discard.")]
Supplement = Annotated[bool, typer.Option(help="Out on a supplement tile after a kong.")]
FlowerSupplement = Annotated[bool, typer.Option(help="Out on a tile drawn for a flower.")]
RobbedKong = Annotated[bool, typer.Option(help="Out on a tile robbed from a kong.")]
SecondKong = Annotated[bool, typer.Option(help="Out after the second kong of one turn.")]
Tile = Annotated[
    list[str] | None,
    typer.Option(help="The winning tile, e.g. 5p (1m-9m, 1p-9p, 1s-9s, 1z-7z) ([WINNER:]TILE)."),
]
Discards = Annotated[
    list[str] | None, typer.Option(help="The winner's discards in order, comma-separated ([WINNER:]a,b,...).")
]
Melded = Annotated[list[str] | None, typer.Option(help="The winner's melded sets ([WINNER:]N).")]
Jokers = Annotated[list[str] | None, typer.Option(help="Pre-dealt jokers in the winner's hand ([WINNER:]N).")]
PungHand = Annotated[bool, typer.Option(help="A hand without chows (it collects a kitty).")]
CallBeforeFirstDraw = Annotated[
    bool, typer.Option(help="Someone declared a chow, pung or kong before the winner's first draw.")
]
SupplementsToReady = Annotated[
    bool, typer.Option(help="Supplement tiles for flowers were used to reach the calling hand.")
]
HandPenalties = Annotated[
    list[str] | None,
    typer.Option("--penalty", help="A penalty for this hand paid to the winner: [WINNER:]PLAYER:AMOUNT."),
]
Ready = Annotated[str | None, typer.Option(help="Players ready (tenpai), comma-separated.")]
Nagashi = Annotated[str | None, typer.Option(help="Players claiming nagashi mangan, comma-separated.")]
Kongs = Annotated[
    str | None,
    typer.Option(help="Who declared each kong of the hand, in order (a name once per kong), e.g. Ann,Ben,Ann,Cho."),
]
Amount = Annotated[str | None, typer.Option(help="Points; default the rules' chombo amount.")]
PenaltyKind = Annotated[str, typer.Option("--kind", help="What the penalty is for.")]
Share = Annotated[str | None, typer.Option(help="to_others, reverse_mangan or off_table; default by the rules.")]
Note = Annotated[str, typer.Option(help="A note for the record.")]

# The flags that hold for every winner, by the fact they set.
FLAG_OPTIONS = (
    "first_turn",
    "last_tile",
    "supplement_tile",
    "flower_supplement",
    "robbed_kong",
    "second_kong",
    "pung_hand",
    "call_before_first_draw",
    "supplements_to_ready",
)


def win_fields(winners: Sequence[str], options: dict[str, Any]) -> dict[str, Any]:
    """The text fields of a win typed as ``PLAYER:VALUE`` for each winner with the options of
    ``honba win`` (by their parameter names: ``from_``, ``riichi``, ``pao``, ``dora``, ...)."""
    if not winners:
        raise InputError("give PLAYER:VALUE for each winner, e.g. Ann:3/30")
    if len(winners) > MAX_WINNERS:
        raise InputError(f"at most {MAX_WINNERS} winners on one discard, not {len(winners)}")
    fields: dict[str, Any] = {"kind": "win", "discarder": options.get("from_") or "", "riichi": options.get("riichi")}
    names = []
    for i, spec in enumerate(winners):
        if ":" not in spec:
            raise InputError(f"write each winner as PLAYER:VALUE, e.g. Ann:3/30 (got {spec!r})")
        name, value = spec.rsplit(":", 1)
        fields[f"winner{slot(i)}"], fields[f"value{slot(i)}"] = name, value
        names.append(name)
    one = {"pao": "pao", "dora": "dora", "loser_scores": "loser_scores", "tile": "tile", "discards": "discards"}
    one |= {"melded": "melded", "jokers": "jokers"}
    for option, field in one.items():
        for text in options.get(option) or ():
            s, rest = _for_winner(option, text, names)
            if f"{field}{s}" in fields:
                raise InputError(f"--{option.replace('_', '-')} is given twice for {names[int(s or 1) - 1]}")
            fields[f"{field}{s}"] = rest
    many = {"special": "special", "fact": "facts", "penalty": "penalties"}
    for option, field in many.items():
        for text in options.get(option) or ():
            s, rest = _for_winner(option, text, names)
            fields.setdefault(f"{field}{s}", []).append(rest)
    for flag in FLAG_OPTIONS:
        if options.get(flag):
            for i in range(len(names)):
                fields.setdefault(f"facts{slot(i)}", []).append(flag)
    return fields


def _for_winner(option: str, text: str, winners: Sequence[str]) -> tuple[str, str]:
    """Which winner an option's value is for: ``WINNER:rest`` names one, else the only winner."""
    head, colon, rest = text.partition(":")
    if colon:
        for i, name in enumerate(winners):
            if head.strip().casefold() == name.strip().casefold() and rest:
                return slot(i), rest
    if len(winners) == 1:
        return "", text
    flag = "--" + option.replace("_", "-")
    raise InputError(f"{flag} {text!r}: name the winner it is for, e.g. {flag} {winners[0]}:{text}")


def draw_fields(ready: str | None, riichi: str | None, nagashi: str | None) -> dict[str, Any]:
    """The text fields of an exhaustive draw as ``honba draw`` takes it."""
    return {"kind": "draw", "ready": ready, "riichi": riichi, "nagashi": nagashi}


def abort_fields(kind: str, riichi: str | None, kongs: str | None) -> dict[str, Any]:
    """The text fields of an abortive draw as ``honba abort`` takes it."""
    return {"kind": "abort", "abort": kind, "riichi": riichi, "kongs": kongs}


def penalty_fields(player: str, amount: str | None, kind: str, share: str | None, note: str) -> dict[str, Any]:
    """The text fields of a penalty as ``honba penalty`` takes it."""
    return {"kind": "penalty", "player": player, "amount": amount, "penalty_kind": kind, "share": share, "note": note}


def set_fields(settings: Sequence[str]) -> dict[str, str]:
    """``honba amend --set FIELD=VALUE``: the fields to change, each a text field of the entry
    (``value=3/30``, ``riichi=Ann,Cho``, ``winner2=``: an empty value clears the field)."""
    changes: dict[str, str] = {}
    for text in settings:
        name, equals, value = text.partition("=")
        if not equals or not name.strip():
            raise InputError(f"--set takes FIELD=VALUE, e.g. --set value=3/30 (got {text!r})")
        if name.strip() in changes:
            raise InputError(f"--set {name.strip()} is given twice")
        changes[name.strip()] = value
    return changes
