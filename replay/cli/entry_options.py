"""The options of ``honba win``, ``draw``, ``abort``, ``penalty`` and ``amend`` as the text fields of
the one entry model (``replay.input.fields.entry_from_fields``, the fields of ``docs/web.md``).

The command line only says which field each option fills: the fields are read, and refused by
name, by the service, as the forms' and the API's are. With several winners an option about one
winner's hand names the winner first (``--dora Cho:2``, ``--pao Cho:Dai``, ``--fact Cho:first_turn``);
the flags (``--last-tile`` and the like) hold for every winner (one discard, one last tile).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from typing import Annotated, Any, TypeVar

import typer

from replay.input.fields import MAX_WINNERS, slot
from replay.input.parsing import InputError
from replay.input.tiles import HandTiles

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
# A win entered by its tiles (``honba win``): the hand gives the value and the yaku.
Hand = Annotated[
    str | None,
    typer.Option(
        help="The winner's concealed tiles, the winning tile among them, e.g. 234m567p11122s55z "
        "(0 for a red five, 1z-7z East South West North white green red): han, fu and yaku "
        "are worked out from them (riichi rules). The winner is then given as PLAYER, or "
        "PLAYER:VALUE to record a value of the table's own.",
        rich_help_panel="Tiles",
    ),
]
WinTile = Annotated[str | None, typer.Option(help="The winning tile, e.g. 5p (with --hand).", rich_help_panel="Tiles")]
Call = Annotated[
    list[str] | None,
    typer.Option(
        help="A call of the winner: chi:345m, pon:777z, kan:1111p (open), ankan:2222s (concealed), "
        "kakan:5555m (added); once per call.",
        rich_help_panel="Tiles",
    ),
]
DoraIndicators = Annotated[
    str | None, typer.Option(help="The dora indicators, e.g. 3m7z (with --hand).", rich_help_panel="Tiles")
]
UraIndicators = Annotated[
    str | None, typer.Option(help="The ura dora indicators (with --hand).", rich_help_panel="Tiles")
]
Ippatsu = Annotated[
    bool, typer.Option(help="Out within one go-around of riichi (with --hand).", rich_help_panel="Tiles")
]
DoubleRiichi = Annotated[bool, typer.Option(help="Riichi on the first discard (with --hand).", rich_help_panel="Tiles")]
# The options that describe the hand's tiles, which go with --hand only.
TILE_OPTIONS = ("win_tile", "call", "dora_indicators", "ura_indicators", "ippatsu", "double_riichi")

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


# The option groups: each command names the groups it takes (``with_options``) instead of declaring
# their options again.
Option = tuple[Any, Any]  # an option's type (Annotated, with its typer.Option) and its default


def _group(**options: Option) -> tuple[inspect.Parameter, ...]:
    return tuple(
        inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=kind, default=default)
        for name, (kind, default) in options.items()
    )


# A win's facts: ``honba win``, and ``honba amend``'s replacement typed again.
WIN_OPTIONS = _group(
    from_=(From, None),
    pao=(Pao, None),
    riichi=(Riichi, None),
    dora=(Dora, None),
    loser_scores=(LoserScores, None),
    special=(Special, None),
    fact=(Fact, None),
    first_turn=(FirstTurn, False),
    last_tile=(LastTile, False),
    supplement=(Supplement, False),
    flower_supplement=(FlowerSupplement, False),
    robbed_kong=(RobbedKong, False),
    second_kong=(SecondKong, False),
    tile=(Tile, None),
    discards=(Discards, None),
    melded=(Melded, None),
    jokers=(Jokers, None),
    pung_hand=(PungHand, False),
    call_before_first_draw=(CallBeforeFirstDraw, False),
    supplements_to_ready=(SupplementsToReady, False),
    penalty=(HandPenalties, None),
)
# A win entered by its tiles (``honba win``).
TILE_GROUP = _group(
    hand=(Hand, None),
    win_tile=(WinTile, None),
    call=(Call, None),
    dora_indicators=(DoraIndicators, None),
    ura_indicators=(UraIndicators, None),
    ippatsu=(Ippatsu, False),
    double_riichi=(DoubleRiichi, False),
)
# A draw's, an abortive draw's and a penalty's (``honba amend``'s replacement typed again; ``riichi``
# is a win's option too).
OTHER_ENTRY_OPTIONS = _group(
    ready=(Ready, None),
    nagashi=(Nagashi, None),
    kongs=(Kongs, None),
    amount=(Amount, None),
    kind=(PenaltyKind, "chombo"),
    share=(Share, None),
    note=(Note, ""),
)

Command = TypeVar("Command", bound=Callable[..., Any])


def with_options(*groups: tuple[inspect.Parameter, ...]) -> Callable[[Command], Command]:
    """A command that takes the options of ``groups``: typer sees them in place of the command's
    ``options`` parameter, and the command is given them as one dict, ``options``, by their
    parameter names (``--supplement`` also as ``supplement_tile``, the fact it sets)."""
    added = [parameter for group in groups for parameter in group]
    names = [parameter.name for parameter in added]

    def decorate(command: Command) -> Command:
        signature = inspect.signature(command, eval_str=True)
        parameters = list(signature.parameters.values())
        at = [p.name for p in parameters].index("options")
        # Of the kind of the parameter they stand for (keyword-only where it follows defaults).
        kind = parameters[at].kind
        group = [p.replace(kind=kind) for p in added]
        shown = signature.replace(parameters=[*parameters[:at], *group, *parameters[at + 1 :]])

        @functools.wraps(command)
        def run(*args: Any, **kwargs: Any) -> Any:
            options = {name: kwargs.pop(name) for name in names if name in kwargs}
            if "supplement" in options:
                options["supplement_tile"] = options["supplement"]
            return command(*args, options=options, **kwargs)

        run.__signature__ = shown  # type: ignore[attr-defined]
        run.__annotations__ = {p.name: p.annotation for p in shown.parameters.values()}
        return run  # type: ignore[return-value]

    return decorate


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
        if ":" not in spec and options.get("hand") is None:
            raise InputError(f"write each winner as PLAYER:VALUE, e.g. Ann:3/30 (got {spec!r})")
        # With --hand the tiles give the value: the winner alone, or PLAYER:VALUE with one typed too.
        name, value = spec.rsplit(":", 1) if ":" in spec else (spec, "")
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


def check_no_tile_options(options: dict[str, Any]) -> None:
    """The options of a hand's tiles go with ``--hand`` only."""
    if any(options.get(name) for name in TILE_OPTIONS):
        raise InputError("--win-tile, --call, the indicators, --ippatsu and --double-riichi go with --hand")


def hand_tiles(options: dict[str, Any]) -> HandTiles:
    """The winning hand ``--hand``, ``--win-tile``, each ``--call`` and the indicators describe."""
    if options.get("win_tile") is None:
        raise InputError("--hand needs --win-tile: which of its tiles won")
    return HandTiles.from_text(
        options["hand"],
        options["win_tile"],
        options.get("call") or (),
        options.get("dora_indicators"),
        options.get("ura_indicators"),
        ippatsu=bool(options.get("ippatsu")),
        double_riichi=bool(options.get("double_riichi")),
    )


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
