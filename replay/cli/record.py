"""The recording commands of ``honba`` (start, win, draw, abort, penalty, end, status, log, list,
rules): read the input, call the service, print.

Bad input gives one line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from domain.rules import load_preset, preset_names, rules_diff
from domain.values import AbortKind
from replay.cli import entry_options as eo
from replay.cli.layout import Column, Grid
from replay.cli.render import json_text, ledger_csv, ledger_table, print_digests, print_recorded, print_status
from replay.cli.shell import ClientKey, Expect, app, err, guarded, guarded_match, out, rules_app, shell, warn_if_damaged
from replay.input.parsing import InputError
from replay.service.common.rules import resolve_rules, rules_for_start
from replay.service.common.shapes import counted
from replay.service.recording.entry import CorrectionRequest, Entry, apply_correction, apply_entry, entry_from_fields
from replay.service.recording.matches import (
    LogShown,
    match_status,
    read_log,
    stored_matches,
)
from replay.service.recording.recording import ForHand, Recorded, start_match

if TYPE_CHECKING:  # the hand calculator is loaded only for a win entered by its tiles
    from replay.service.recording.tiles import TileValue


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
        print_digests(out, started, shell(ctx).checkpoint())

    guarded(run)


@app.command()
@eo.with_options(eo.WIN_OPTIONS, eo.TILE_GROUP)
def win(
    ctx: typer.Context,
    key: Annotated[str, typer.Argument(help="The match.")],
    winners: Annotated[
        list[str], typer.Argument(help="PLAYER:VALUE for each winner, e.g. Ann:3/30, Ben:mangan, Cho:4faan.")
    ],
    *,
    options: dict[str, Any],
    client_key: ClientKey = None,
    expect: Expect = None,
) -> None:
    """Record a win (several winners only on one discard), with the facts of how it went out.

    With --hand and --win-tile the winner's hand gives its value and yaku (kept with the win,
    shown in the ledger and counted by honba stats); a value typed as well is recorded where it
    differs, with a warning.
    """
    hand = options["hand"]
    if hand is None:

        def fields() -> dict[str, Any]:
            eo.check_no_tile_options(options)
            return eo.win_fields(winners, options)

        _enter(ctx, key, fields, client_key, expect)
        return

    def run() -> tuple[Recorded, TileValue]:
        # The hand calculator (the mahjong package) is loaded only for a win entered by its tiles.
        from replay.service.recording.tiles import record_tile_win

        tiles = eo.hand_tiles(options)
        entry = entry_from_fields(eo.win_fields(winners, options))
        return record_tile_win(shell(ctx).app, key, entry, tiles, client_key=client_key, expect=for_hand(expect))

    done, valued = guarded_match(ctx, key, run)
    from replay.service.recording.tiles import describe_yaku

    out.print(f"From the tiles: {valued.from_tiles.describe()} ({describe_yaku(valued.details)})", soft_wrap=True)
    if valued.warning is not None:
        err.print(f"honba: warning: {valued.warning}", soft_wrap=True)
    _print_recorded(done, ctx)


@app.command()
def draw(
    ctx: typer.Context,
    key: Annotated[str, typer.Argument(help="The match.")],
    ready: eo.Ready = None,
    riichi: eo.Riichi = None,
    nagashi: eo.Nagashi = None,
    client_key: ClientKey = None,
    expect: Expect = None,
) -> None:
    """Record an exhaustive draw."""
    _enter(ctx, key, lambda: eo.draw_fields(ready, riichi, nagashi), client_key, expect)


@app.command()
def abort(
    ctx: typer.Context,
    key: Annotated[str, typer.Argument(help="The match.")],
    kind: Annotated[AbortKind, typer.Argument(help="Which abortive draw.")],
    riichi: eo.Riichi = None,
    kongs: eo.Kongs = None,
    client_key: ClientKey = None,
    expect: Expect = None,
) -> None:
    """Record an abortive draw."""
    _enter(ctx, key, lambda: eo.abort_fields(kind.value, riichi, kongs), client_key, expect)


@app.command()
def penalty(
    ctx: typer.Context,
    key: Annotated[str, typer.Argument(help="The match.")],
    player: Annotated[str, typer.Argument(help="The player penalised.")],
    amount: eo.Amount = None,
    kind: eo.PenaltyKind = "chombo",
    share: eo.Share = None,
    note: eo.Note = "",
    by: Annotated[str | None, typer.Option(help="Referee: add it as a correction (also after the end).")] = None,
    reason: Annotated[str | None, typer.Option(help="Why the referee adds it (with --by).")] = None,
    client_key: ClientKey = None,
    expect: Expect = None,
) -> None:
    """Record a penalty (chombo and the like); with --by and --reason, a referee's correction."""

    def run() -> Recorded:
        entry = entry_from_fields(eo.penalty_fields(player, amount, kind, share, note))
        if by is not None or reason is not None:
            request = CorrectionRequest("penalty", entry=entry, by=by or "", reason=reason or "")
            return apply_correction(shell(ctx).app, key, request, client_key=client_key)
        return apply_entry(shell(ctx).app, key, entry, client_key=client_key, expect=for_hand(expect))

    _print_recorded(guarded_match(ctx, key, run), ctx)


def for_hand(expect: str | None) -> ForHand | None:
    """The hand ``--expect`` names, for the service to check (None: not given)."""
    return ForHand(hand=expect) if expect is not None else None


def _enter(
    ctx: typer.Context, key: str, fields: Callable[[], dict[str, Any]], client_key: str | None, expect: str | None
) -> None:
    """Record the entry the command's options describe (read by the service, as every front end's);
    ``expect`` the hand it is for (``--expect``)."""

    def run() -> Recorded:
        entry = entry_from_fields(fields())
        return apply_entry(shell(ctx).app, key, entry, client_key=client_key, expect=for_hand(expect))

    _print_recorded(guarded_match(ctx, key, run), ctx)


@app.command()
def end(
    ctx: typer.Context,
    key: Annotated[str, typer.Argument(help="The match.")],
    reason: Annotated[str, typer.Option(help="Why it ends early.")] = "agreed",
    client_key: ClientKey = None,
    expect: Expect = None,
) -> None:
    """End a match before the rules would (agreement, time limit)."""

    def run() -> Recorded:
        return apply_entry(
            shell(ctx).app, key, Entry("end", reason=reason), client_key=client_key, expect=for_hand(expect)
        )

    _print_recorded(guarded_match(ctx, key, run), ctx)


def _print_recorded(done: Recorded, ctx: typer.Context) -> None:
    """What a recording command prints, with the store head of the checkpoint it takes of what it saved."""
    print_recorded(out, done, shell(ctx).checkpoint())


@app.command()
def status(
    ctx: typer.Context,
    key: Annotated[str, typer.Argument(help="The match.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for tools.")] = False,
) -> None:
    """The table state: hand, dealer, counters, deposits, streaks, scores."""

    shown = guarded_match(ctx, key, lambda: match_status(shell(ctx).app, key))
    for line in shown.damage_lines:
        warn_if_damaged(line)
    if as_json:
        print(json_text(shown.data))
        return
    out.print(f"Match {key!r} ({shown.rules.name})", markup=False, highlight=False)
    print_status(out, shown.players, shown.state, shown.rules)
    for judgement in shown.judgements:
        out.print(f"End re-judged at {judgement.hand}: {judgement.describe()}", markup=False, highlight=False)
    if shown.data["clock"] is not None:
        out.print(f"Clock: {shown.data['clock']['text']}", markup=False, highlight=False)
    print_digests(out, shown, shown.store_head)


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
        sys.stdout.write(ledger_csv(shown.players, list(history.entries), history.numbers, shown.rules.scoring))
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
