"""The recording commands of ``honba`` (start, win, draw, abort, penalty, end, status, log, list,
rules): read the input, call the service, print.

Bad input gives one line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from domain.match import Match
from domain.rules import load_preset, preset_names, rules_diff
from domain.values import (
    AbortiveDraw,
    AbortKind,
    ExhaustiveDraw,
    HandPenalty,
    HandResult,
    Penalty,
    WinFacts,
    WinResult,
)
from replay.cli.layout import Column, Grid
from replay.cli.render import json_text, ledger_csv, ledger_table, print_status, recorded_payments_lines
from replay.cli.shell import ClientKey, app, err, guarded, guarded_match, out, rules_app, shell, warn_if_damaged
from replay.input.parsing import InputError, seat_of, seats_of
from replay.service.entry import penalty_fact, win_result
from replay.service.matches import (
    LogShown,
    MatchStatus,
    match_status,
    read_log,
    stored_matches,
)
from replay.service.recording import Recorded, penalise, record, start_match
from replay.service.recording import end as end_match
from replay.service.rules import resolve_rules, rules_for_start
from replay.service.shapes import counted

if TYPE_CHECKING:  # the hand calculator is loaded only for a win entered by its tiles
    from replay.service.tiles import TileValue


@app.command()
def start(
    ctx: typer.Context,
    key: Annotated[str, typer.Argument(help="The match's key, e.g. club-2026-11-21-table1.")],
    players: Annotated[str, typer.Option(help="Players in seat order, comma-separated; the first deals first.")],
    rules: Annotated[str, typer.Option(help="Rules preset (honba rules list).")] = "tenhou",
    rules_file: Annotated[Path | None, typer.Option(help="A TOML rule file (base = preset, then values).")] = None,
    set_: Annotated[list[str] | None, typer.Option("--set", help="Override a rule value: key=value.")] = None,
    client_key: ClientKey = None,
) -> None:
    """Start recording a match (with --key, a retry of the same start answers as the first time)."""

    def run() -> None:
        ruleset = rules_for_start(rules, None if rules_file is None else str(rules_file), set_)
        names = [p.strip() for p in players.split(",")]
        started = start_match(
            shell(ctx).app, key, names, ruleset, {"format": "honba", "entered": "cli"}, client_key=client_key
        )
        out.print(f"Started {key!r} under {ruleset.name}: {', '.join(started.players)}")
        print_status(out, started.players, started.state, started.rules)
        _print_heads(started)

    guarded(run)


def _hand_penalty(spec: str, players: Sequence[str]) -> HandPenalty:
    """``PLAYER:AMOUNT`` as a penalty attached to the hand."""
    name, _, amount = spec.rpartition(":")
    if not name or not amount.isdigit():
        raise InputError(f"write a hand's penalty as PLAYER:AMOUNT, e.g. Ben:100 (got {spec!r})")
    return HandPenalty(seat_of(name, players), int(amount))


@app.command()
def win(
    ctx: typer.Context,
    key: Annotated[str, typer.Argument(help="The match.")],
    winners: Annotated[
        list[str], typer.Argument(help="PLAYER:VALUE for each winner, e.g. Ann:3/30, Ben:mangan, Cho:4faan.")
    ],
    from_: Annotated[str | None, typer.Option("--from", help="The discarder; leave out for a self-drawn win.")] = None,
    pao: Annotated[str | None, typer.Option(help="The player liable (pao) for the hand.")] = None,
    riichi: Annotated[str | None, typer.Option(help="Players whose riichi was accepted this hand.")] = None,
    dora: Annotated[int | None, typer.Option(help="Han from dora, which do not count toward a minimum.")] = None,
    loser_scores: Annotated[
        str | None, typer.Option(help="Each seat's own hand score, in seat order, where losers settle.")
    ] = None,
    special: Annotated[list[str] | None, typer.Option(help="A special hand claimed (e.g. heavenly_hand).")] = None,
    first_turn: Annotated[bool, typer.Option(help="Out on the first draw or discard, before any call.")] = False,
    last_tile: Annotated[bool, typer.Option(help="Out on the last tile of the wall or the last discard.")] = False,
    supplement: Annotated[bool, typer.Option(help="Out on a supplement tile after a kong.")] = False,
    flower_supplement: Annotated[bool, typer.Option(help="Out on a tile drawn for a flower.")] = False,
    robbed_kong: Annotated[bool, typer.Option(help="Out on a tile robbed from a kong.")] = False,
    second_kong: Annotated[bool, typer.Option(help="Out after the second kong of one turn.")] = False,
    tile: Annotated[str | None, typer.Option(help="The winning tile, e.g. 5p (1m-9m, 1p-9p, 1s-9s, 1z-7z).")] = None,
    discards: Annotated[str | None, typer.Option(help="The winner's discards in order, comma-separated.")] = None,
    melded: Annotated[int, typer.Option(help="The winner's melded sets.")] = 0,
    jokers: Annotated[int, typer.Option(help="Pre-dealt jokers in the winner's hand.")] = 0,
    pung_hand: Annotated[bool, typer.Option(help="A hand without chows (it collects a kitty).")] = False,
    call_before_first_draw: Annotated[
        bool, typer.Option(help="Someone declared a chow, pung or kong before the winner's first draw.")
    ] = False,
    supplements_to_ready: Annotated[
        bool, typer.Option(help="Supplement tiles for flowers were used to reach the calling hand.")
    ] = False,
    penalty: Annotated[
        list[str] | None, typer.Option(help="PLAYER:AMOUNT, a penalty for this hand paid to the winner.")
    ] = None,
    hand: Annotated[
        str | None,
        typer.Option(
            help="The winner's concealed tiles, the winning tile among them, e.g. 234m567p11122s55z "
            "(0 for a red five, 1z-7z East South West North white green red): han, fu and yaku "
            "are worked out from them (riichi rules). The winner is then given as PLAYER, or "
            "PLAYER:VALUE to record a value of the table's own.",
            rich_help_panel="Tiles",
        ),
    ] = None,
    win_tile: Annotated[
        str | None, typer.Option(help="The winning tile, e.g. 5p (with --hand).", rich_help_panel="Tiles")
    ] = None,
    call: Annotated[
        list[str] | None,
        typer.Option(
            help="A call of the winner: chi:345m, pon:777z, kan:1111p (open), ankan:2222s (concealed), "
            "kakan:5555m (added); once per call.",
            rich_help_panel="Tiles",
        ),
    ] = None,
    dora_indicators: Annotated[
        str | None, typer.Option(help="The dora indicators, e.g. 3m7z (with --hand).", rich_help_panel="Tiles")
    ] = None,
    ura_indicators: Annotated[
        str | None, typer.Option(help="The ura dora indicators (with --hand).", rich_help_panel="Tiles")
    ] = None,
    ippatsu: Annotated[
        bool, typer.Option(help="Out within one go-around of riichi (with --hand).", rich_help_panel="Tiles")
    ] = False,
    double_riichi: Annotated[
        bool, typer.Option(help="Riichi on the first discard (with --hand).", rich_help_panel="Tiles")
    ] = False,
    client_key: ClientKey = None,
) -> None:
    """Record a win (several winners only on one discard), with the facts of how it went out.

    With --hand and --win-tile the winner's hand gives its value and yaku (kept with the win,
    shown in the ledger and counted by honba stats); a value typed as well is recorded where it
    differs, with a warning.
    """

    def result(match: Match) -> HandResult:
        players = match.players
        discarder = seat_of(from_, players) if from_ else None
        liable = seat_of(pao, players) if pao else None
        facts = WinFacts(
            last_tile=last_tile,
            supplement_tile=supplement,
            flower_supplement=flower_supplement,
            robbed_kong=robbed_kong,
            second_kong=second_kong,
            first_turn=first_turn,
            winning_tile=tile,
            discards=tuple(d.strip() for d in discards.split(",") if d.strip()) if discards else (),
            melded_sets=melded,
            predealt_jokers=jokers,
            pung_hand=pung_hand,
            special_hands=tuple(special or ()),
            call_before_first_draw=call_before_first_draw,
            supplements_to_ready=supplements_to_ready,
            penalties=tuple(_hand_penalty(spec, players) for spec in penalty or ()),
        )
        scores: tuple[int, ...] = ()
        if loser_scores:
            try:
                scores = tuple(int(v) for v in loser_scores.split(","))
            except ValueError:
                raise InputError(f"--loser-scores takes whole numbers in seat order, not {loser_scores!r}") from None
        tile_options = (win_tile, call, dora_indicators, ura_indicators, ippatsu or None, double_riichi or None)
        if hand is None:
            if any(option for option in tile_options):
                raise InputError("--win-tile, --call, the indicators, --ippatsu and --double-riichi go with --hand")
            return win_result(players, winners, discarder, liable, riichi, dora, facts, scores)
        if win_tile is not None and tile is not None and win_tile != tile:
            raise InputError(f"--win-tile {win_tile} and --tile {tile} name two winning tiles: give one")
        won, valued = _tile_win(
            match,
            winners,
            discarder,
            liable,
            riichi,
            facts,
            scores,
            hand,
            win_tile or tile,
            call or [],
            dora_indicators,
            ura_indicators,
            ippatsu,
            double_riichi,
        )
        from_tiles[:] = [valued]
        return won

    # What the tiles gave, printed once the win is recorded (the last try's, after a conflict).
    from_tiles: list[TileValue] = []

    def run() -> Recorded:
        done = record(shell(ctx).app, key, result, client_key=client_key)
        if from_tiles:
            from replay.service.tiles import describe_yaku
        for valued in from_tiles:
            out.print(
                f"From the tiles: {valued.from_tiles.describe()} ({describe_yaku(valued.details)})", soft_wrap=True
            )
            if valued.warning is not None:
                err.print(f"honba: warning: {valued.warning}", soft_wrap=True)
        return done

    _print_recorded(guarded_match(ctx, key, run))


def _tile_win(
    match: Match,
    winners: Sequence[str],
    discarder: int | None,
    liable: int | None,
    riichi: str | None,
    facts: WinFacts,
    scores: tuple[int, ...],
    hand: str,
    win_tile: str | None,
    calls: Sequence[str],
    dora_indicators: str | None,
    ura_indicators: str | None,
    ippatsu: bool,
    double_riichi: bool,
) -> tuple[WinResult, TileValue]:
    """A win entered by its tiles (one winner), with what the tiles gave (and the warning where a
    typed value differs)."""
    # The hand calculator (the mahjong package) is loaded only for a win entered by its tiles.
    from replay.service.tiles import HandTiles, tile_win

    if len(winners) != 1:
        raise InputError("--hand gives one winner's tiles: name one winner (record a double ron by value)")
    if win_tile is None:
        raise InputError("--hand needs --win-tile: which of its tiles won")
    tiles = HandTiles.from_text(
        hand,
        win_tile,
        calls,
        dora_indicators,
        ura_indicators,
        ippatsu=ippatsu,
        double_riichi=double_riichi,
        last_tile=facts.last_tile,
        supplement_tile=facts.supplement_tile,
        robbed_kong=facts.robbed_kong,
        first_turn=facts.first_turn,
    )
    return tile_win(
        match.players,
        match.state,
        match.rules,
        winners[0],
        tiles,
        discarder=discarder,
        liable=liable,
        riichi=riichi,
        facts=facts,
        scores=scores,
    )


@app.command()
def draw(
    ctx: typer.Context,
    key: Annotated[str, typer.Argument(help="The match.")],
    ready: Annotated[str | None, typer.Option(help="Players ready (tenpai), comma-separated.")] = None,
    riichi: Annotated[str | None, typer.Option(help="Players whose riichi was accepted this hand.")] = None,
    nagashi: Annotated[str | None, typer.Option(help="Players claiming nagashi mangan.")] = None,
    client_key: ClientKey = None,
) -> None:
    """Record an exhaustive draw."""

    def result(match: Match) -> HandResult:
        players = match.players
        return ExhaustiveDraw(seats_of(ready, players), seats_of(riichi, players), seats_of(nagashi, players))

    guarded_match(ctx, key, lambda: _print_recorded(record(shell(ctx).app, key, result, client_key=client_key)))


@app.command()
def abort(
    ctx: typer.Context,
    key: Annotated[str, typer.Argument(help="The match.")],
    kind: Annotated[AbortKind, typer.Argument(help="Which abortive draw.")],
    riichi: Annotated[str | None, typer.Option(help="Players whose riichi was accepted this hand.")] = None,
    kongs: Annotated[
        str | None,
        typer.Option(help="Who declared each kong of the hand, in order (a name once per kong), e.g. Ann,Ben,Ann,Cho."),
    ] = None,
    client_key: ClientKey = None,
) -> None:
    """Record an abortive draw."""

    def result(match: Match) -> HandResult:
        players = match.players
        return AbortiveDraw(kind, seats_of(riichi, players), seats_of(kongs, players))

    guarded_match(ctx, key, lambda: _print_recorded(record(shell(ctx).app, key, result, client_key=client_key)))


@app.command()
def penalty(
    ctx: typer.Context,
    key: Annotated[str, typer.Argument(help="The match.")],
    player: Annotated[str, typer.Argument(help="The player penalised.")],
    amount: Annotated[int | None, typer.Option(help="Points; default the rules' chombo amount.")] = None,
    kind: Annotated[str, typer.Option(help="What the penalty is for.")] = "chombo",
    share: Annotated[
        str | None, typer.Option(help="to_others, reverse_mangan or off_table; default by the rules.")
    ] = None,
    note: Annotated[str, typer.Option(help="A note for the record.")] = "",
    by: Annotated[str | None, typer.Option(help="Referee: add it as a correction (also after the end).")] = None,
    reason: Annotated[str | None, typer.Option(help="Why the referee adds it (with --by).")] = None,
    client_key: ClientKey = None,
) -> None:
    """Record a penalty (chombo and the like); with --by and --reason, a referee's correction."""

    def fact(match: Match) -> Penalty:
        return penalty_fact(match.players, match.state, match.rules, player, amount, kind, share, note)

    def run() -> Recorded:
        return penalise(shell(ctx).app, key, fact, by=by, reason=reason, client_key=client_key)

    _print_recorded(guarded_match(ctx, key, run))


@app.command()
def end(
    ctx: typer.Context,
    key: Annotated[str, typer.Argument(help="The match.")],
    reason: Annotated[str, typer.Option(help="Why it ends early.")] = "agreed",
    client_key: ClientKey = None,
) -> None:
    """End a match before the rules would (agreement, time limit)."""

    ended = guarded_match(ctx, key, lambda: end_match(shell(ctx).app, key, reason, client_key=client_key))
    print_status(out, ended.players, ended.state, ended.rules)
    _print_heads(ended)


def _print_recorded(done: Recorded) -> None:
    """What a recording command prints: the payments just recorded, the table, the digests."""
    for line in recorded_payments_lines(done.players, done.ledger, done.rules.scoring):
        out.print(line, markup=False, highlight=False)
    print_status(out, done.players, done.state, done.rules)
    _print_heads(done)


def _print_heads(shown: Recorded | MatchStatus) -> None:
    """The digests to publish: the match's head, and the store's (``honba check --against``)."""
    out.print(f"Head digest: {shown.head}; store head digest {shown.store_head}", soft_wrap=True)


@app.command()
def status(
    ctx: typer.Context,
    key: Annotated[str, typer.Argument(help="The match.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for tools.")] = False,
) -> None:
    """The table state: hand, dealer, counters, deposits, streaks, scores."""

    shown = guarded_match(ctx, key, lambda: match_status(shell(ctx).app, key))
    warn_if_damaged(shown.damage)
    if as_json:
        print(json_text(shown.data))
        return
    out.print(f"Match {key!r} ({shown.rules.name})", markup=False, highlight=False)
    print_status(out, shown.players, shown.state, shown.rules)
    for judgement in shown.judgements:
        out.print(f"End re-judged at {judgement.hand}: {judgement.describe()}", markup=False, highlight=False)
    if shown.data["clock"] is not None:
        out.print(f"Clock: {shown.data['clock']['text']}", markup=False, highlight=False)
    _print_heads(shown)


@app.command()
def log(
    ctx: typer.Context,
    key: Annotated[str, typer.Argument(help="The match.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for tools.")] = False,
    fmt: Annotated[
        str, typer.Option("--format", help="table (the default), json (as --json) or csv (for spreadsheets).")
    ] = "table",
) -> None:
    """The hand-by-hand ledger with every payment and its reason."""

    def run() -> LogShown:
        if fmt not in ("table", "json", "csv"):
            raise InputError(f"--format must be table, json or csv, not {fmt!r}")
        return read_log(shell(ctx).app, key)

    shown = guarded_match(ctx, key, run)
    warn_if_damaged(shown.damage)
    history = shown.log
    if fmt == "csv":
        sys.stdout.write(ledger_csv(shown.players, list(history.entries), history.numbers))
        return
    if as_json or fmt == "json":
        print(json_text(shown.data))
        return
    title = f"Ledger of {key} ({shown.rules.name})"
    out.print(
        ledger_table(
            shown.players,
            list(history.entries),
            title,
            numbers=history.numbers,
            marks=history.marks,
            scoring=shown.rules.scoring,
            clock=[(c["position"], c["text"]) for c in history.clock],
        )
    )


@app.command("list")
def list_matches(ctx: typer.Context) -> None:
    """The stored matches."""

    def run() -> None:
        table = Grid("Matches", [Column("key", key=True), Column("rules"), Column("players"), Column("source")])
        damaged = []
        for summary in stored_matches(shell(ctx).app):
            source = ", ".join(f"{k}={v}" for k, v in summary.source.items())
            if summary.damaged:
                damaged.append(summary)
                source = "DAMAGED: see below"
            table.add_row(summary.key, summary.rules, ", ".join(summary.players), source)
        out.print(table)
        for summary in damaged:
            err.print(f"honba: match {summary.key} is damaged in the store: {summary.damaged}; see honba check")

    guarded(run)


@rules_app.command("list")
def rules_list() -> None:
    """The shipped presets."""
    for name in preset_names():
        out.print(f"{name}: {load_preset(name).description}", markup=False, highlight=False)


@rules_app.command("show")
def rules_show(preset: Annotated[str, typer.Argument(help="A preset name or a TOML rule file.")]) -> None:
    """Every rule value of a preset or rule file."""

    def run() -> None:
        rules = resolve_rules(preset)
        title = f"Rules: {preset} ({rules.description})" if rules.description else f"Rules: {preset}"
        table = Grid(title, [Column("rule", key=True), Column("value")])
        for name, value in rules.to_dict().items():
            table.add_row(name, json.dumps(value, ensure_ascii=False))
        out.print(table)

    guarded(run)


@rules_app.command("diff")
def rules_diff_command(
    first: Annotated[str, typer.Argument(help="A preset name or a TOML rule file.")],
    second: Annotated[str, typer.Argument(help="Another preset name or rule file.")],
) -> None:
    """The rule values that differ between two presets or rule files."""

    def run() -> None:
        differences = rules_diff(resolve_rules(first), resolve_rules(second))
        title = f"{first} vs {second}: {counted(len(differences), 'rule value')} differ"
        table = Grid(title, [Column("rule", key=True), Column(first), Column(second)])
        for name, left, right in differences:
            table.add_row(name, json.dumps(left, ensure_ascii=False), json.dumps(right, ensure_ascii=False))
        out.print(table)

    guarded(run)
