"""The recording commands of ``honba`` (start, win, draw, abort, penalty, end, status, log, list,
export, rules, demo): read the input, call the application, print.

Bad input gives one line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from domain.bounds import LOSER_SCORE, PENALTY_AMOUNT, shown, whole_number
from domain.match import Match
from domain.progression import Fact
from domain.rules import Ruleset, load_preset, preset_names, rules_diff
from domain.values import (
    AbortiveDraw,
    AbortKind,
    ExhaustiveDraw,
    HandPenalty,
    TableState,
    WinFacts,
)
from projections.ledger import LedgerEntry, corrected_ledger
from replay.app import DamagedMatch, HonbaApp
from replay.cli.params import number_option
from replay.cli.shell import ClientKey, app, err, guarded, guarded_match, out, rules_app, shell, warn_if_damaged
from replay.parsing import InputError, seat_of, seats_of
from replay.render import json_text, ledger_csv, ledger_table, recorded_payments_lines, state_lines, status_table
from replay.service.entry import penalty_fact, win_result
from replay.service.matches import log_json, match_log, status_data
from replay.service.rules import resolve_rules, rules_for_start


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
        match = shell(ctx).app.start_match(
            key, names, ruleset, {"format": "honba", "entered": "cli"}, client_key=client_key
        )
        out.print(f"Started {key!r} under {ruleset.name}: {', '.join(match.players)}")
        _print_status(match.players, match.state, match.rules)
        _print_heads(shell(ctx).app, match)

    guarded(run)


def _hand_penalty(spec: str, players: Sequence[str]) -> HandPenalty:
    """``PLAYER:AMOUNT`` as a penalty attached to the hand."""
    name, _, amount = spec.rpartition(":")
    if not name:
        raise InputError(f"write a hand's penalty as PLAYER:AMOUNT, e.g. Ben:100 (got {shown(spec)})")
    return HandPenalty(seat_of(name, players), whole_number(amount, PENALTY_AMOUNT, "--penalty amount"))


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
    client_key: ClientKey = None,
) -> None:
    """Record a win (several winners only on one discard), with the facts of how it went out."""

    def run() -> None:
        match = shell(ctx).app.get_match(key)
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
            scores = tuple(whole_number(v, LOSER_SCORE, "--loser-scores") for v in loser_scores.split(","))
        _record(ctx, key, win_result(players, winners, discarder, liable, riichi, dora, facts, scores), client_key)

    guarded_match(ctx, key, run)


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

    def run() -> None:
        players = shell(ctx).app.get_match(key).players
        result = ExhaustiveDraw(seats_of(ready, players), seats_of(riichi, players), seats_of(nagashi, players))
        _record(ctx, key, result, client_key)

    guarded_match(ctx, key, run)


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

    def run() -> None:
        players = shell(ctx).app.get_match(key).players
        _record(ctx, key, AbortiveDraw(kind, seats_of(riichi, players), seats_of(kongs, players)), client_key)

    guarded_match(ctx, key, run)


@app.command()
def penalty(
    ctx: typer.Context,
    key: Annotated[str, typer.Argument(help="The match.")],
    player: Annotated[str, typer.Argument(help="The player penalised.")],
    amount: Annotated[
        int | None, number_option("--amount", bound=PENALTY_AMOUNT, help="Points; default the rules' chombo amount.")
    ] = None,
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

    def run() -> None:
        application = shell(ctx).app
        match = application.get_match(key)
        fact = penalty_fact(match.players, match.state, match.rules, player, amount, kind, share, note)
        if by is not None or reason is not None:
            match = application.add_penalty(key, fact, by=by or "", reason=reason or "", client_key=client_key)
        else:
            match = application.penalise(key, fact, client_key=client_key)
        _print_payments(match)
        _print_status(match.players, match.state, match.rules)
        _print_heads(shell(ctx).app, match)

    guarded_match(ctx, key, run)


@app.command()
def end(
    ctx: typer.Context,
    key: Annotated[str, typer.Argument(help="The match.")],
    reason: Annotated[str, typer.Option(help="Why it ends early.")] = "agreed",
    client_key: ClientKey = None,
) -> None:
    """End a match before the rules would (agreement, time limit)."""

    def run() -> None:
        match = shell(ctx).app.end(key, reason, client_key=client_key)
        _print_status(match.players, match.state, match.rules)
        _print_heads(shell(ctx).app, match)

    guarded_match(ctx, key, run)


def _record(ctx: typer.Context, key: str, result: Any, client_key: str | None) -> None:
    match = shell(ctx).app.record(key, result, client_key=client_key)
    _print_payments(match)
    _print_status(match.players, match.state, match.rules)
    _print_heads(shell(ctx).app, match)


def _print_heads(application: HonbaApp, match: Match) -> None:
    """The digests to publish: the match's head, and the store's (``honba check --against``)."""
    out.print(f"Head digest: {match.head}; store head digest {application.store_head()}", soft_wrap=True)


def _print_payments(match: Match) -> None:
    """The payments just recorded (who paid whom, how much, why), before the table state."""
    for line in recorded_payments_lines(match.players, corrected_ledger(match.corrected_steps())):
        out.print(line, markup=False, highlight=False)


def _print_status(players: tuple[str, ...], state: TableState, rules: Ruleset) -> None:
    for line in state_lines(players, state, rules):
        out.print(line, markup=False, highlight=False)
    out.print(status_table(players, state, "Scores"))


@app.command()
def status(
    ctx: typer.Context,
    key: Annotated[str, typer.Argument(help="The match.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for tools.")] = False,
) -> None:
    """The table state: hand, dealer, counters, deposits, streaks, scores."""

    def run() -> None:
        application = shell(ctx).app
        match = application.get_match(key)
        # Computed before the warning: a match too damaged to fold fails in one line, not two.
        data = status_data(key, match)
        judgements = match.end_judgements()
        warn_if_damaged(application, key)
        if as_json:
            print(json_text(data))
            return
        out.print(f"Match {key!r} ({match.rules.name})", markup=False, highlight=False)
        _print_status(match.players, match.fold(), match.rules)
        for judgement in judgements:
            out.print(f"End re-judged at {judgement.hand}: {judgement.describe()}", markup=False, highlight=False)
        _print_heads(application, match)

    guarded_match(ctx, key, run)


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

    def run() -> None:
        if fmt not in ("table", "json", "csv"):
            raise InputError(f"--format must be table, json or csv, not {fmt!r}")
        application = shell(ctx).app
        match = application.get_match(key)
        history = match_log(match)  # before the warning, as in status
        warn_if_damaged(application, key)
        if fmt == "csv":
            sys.stdout.write(ledger_csv(match.players, list(history.entries), history.numbers))
            return
        if as_json or fmt == "json":
            print(json_text(log_json(key, match, history)))
            return
        title = f"Ledger of {key} ({match.rules.name})"
        out.print(
            ledger_table(match.players, list(history.entries), title, numbers=history.numbers, marks=history.marks)
        )

    guarded_match(ctx, key, run)


def _ledger(match: Match, facts: list[Fact]) -> list[LedgerEntry]:
    """The ledger of the match's corrected history (``facts`` are the same history, unused)."""
    return corrected_ledger(match.corrected_steps())


def _state(match: Match, facts: list[Fact]) -> TableState:
    """The table after the match's corrected history."""
    return match.fold()


@app.command("list")
def list_matches(ctx: typer.Context) -> None:
    """The stored matches."""

    def run() -> None:
        from rich.table import Table

        table = Table(title="Matches")
        for column in ("key", "rules", "players", "source"):
            table.add_column(column, overflow="fold")
        damaged = []
        for summary in shell(ctx).app.list_matches():
            source = ", ".join(f"{k}={v}" for k, v in summary.source.items())
            if summary.damaged:
                damaged.append(summary)
                source = "DAMAGED: see below"
            table.add_row(summary.key, summary.rules, ", ".join(summary.players), source)
        out.print(table)
        for summary in damaged:
            err.print(f"honba: match {summary.key} is damaged in the store: {summary.damaged}; see honba check")

    guarded(run)


@app.command()
def export(
    ctx: typer.Context,
    key: Annotated[str, typer.Argument(help="The match.")],
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Write to a file instead of stdout.")] = None,
    plain: Annotated[bool, typer.Option("--plain", help="Leave out the chain and seal (for editing by hand).")] = False,
    force: Annotated[
        bool, typer.Option("--force", help="Export a damaged match anyway, the damage written in its seal line.")
    ] = False,
    fmt: Annotated[
        str,
        typer.Option("--format", help="record (a record file, the default) or tenhou-json (a tenhou.net/6 JSON log)."),
    ] = "record",
) -> None:
    """Write a match as a record file (JSON Lines), with the chain that honba check verifies,
    or as a tenhou.net/6 JSON log (``--format tenhou-json``) that honba verify reads back.

    A match whose chain or seal does not check in the store is refused: a fresh chain over it would
    launder the damage. With --force the record file is written with the damage in its seal line,
    which honba check reports and honba import refuses.
    """

    def run() -> None:
        if fmt not in ("record", "tenhou-json"):
            raise InputError(f"--format must be record or tenhou-json, not {fmt!r}")
        application = shell(ctx).app
        match = application.get_match(key)
        damage = application.damage(key)
        if damage is not None and not force:
            raise DamagedMatch(f"{damage}; not exported (--force writes it with the damage recorded)")
        if damage is not None and (plain or fmt != "record"):
            raise InputError("a damaged match is exported as a record file with its damage recorded: leave out --plain")
        if fmt == "tenhou-json":
            from replay.formats.tenhou_json_out import export_tenhou_json

            text = export_tenhou_json(match)
        else:
            from replay.formats.record import export_record

            text = export_record(match, damage=damage)
        if plain and fmt == "record":
            from replay.formats.record import unchained

            text = unchained(text)
        if output is None:
            sys.stdout.write(text)
        else:
            from replay.formats.files import write_whole

            write_whole(output, text)
            err.print(f"wrote {output}", markup=False, highlight=False)

    guarded_match(ctx, key, run)


@rules_app.command("list")
def rules_list() -> None:
    """The shipped presets."""
    for name in preset_names():
        out.print(f"{name}: {load_preset(name).description}", markup=False, highlight=False)


@rules_app.command("show")
def rules_show(preset: Annotated[str, typer.Argument(help="A preset name or a TOML rule file.")]) -> None:
    """Every rule value of a preset or rule file."""

    def run() -> None:
        from rich.table import Table

        rules = resolve_rules(preset)
        table = Table(title=f"Rules: {preset} ({rules.description})" if rules.description else f"Rules: {preset}")
        table.add_column("rule", overflow="fold")
        table.add_column("value", overflow="fold")
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
        from rich.table import Table

        differences = rules_diff(resolve_rules(first), resolve_rules(second))
        table = Table(title=f"{first} vs {second}: {len(differences)} rule values differ")
        table.add_column("rule", overflow="fold")
        table.add_column(first, overflow="fold")
        table.add_column(second, overflow="fold")
        for name, left, right in differences:
            table.add_row(name, json.dumps(left, ensure_ascii=False), json.dumps(right, ensure_ascii=False))
        out.print(table)

    guarded(run)


# The sample match is package data of ``replay`` (pyproject), one folder up.
DEMO_RECORD = Path(__file__).parent.parent / "demo.jsonl"


@app.command()
def demo(
    ctx: typer.Context,
) -> None:
    """Record a short sample match in a fresh SQLite file and show its status and ledger."""

    def run() -> None:
        db = shell(ctx).db
        if db is None:
            import tempfile  # the demo's fresh store only

            db = str(Path(tempfile.mkdtemp(prefix="honba-demo-")) / "demo.sqlite")
        application = HonbaApp.open(db)
        from replay.formats.record import build_match, entry_numbers, parse_record

        record = parse_record(DEMO_RECORD.read_text(encoding="utf-8"), name="demo")
        stored = application.store_whole(build_match(record, name="demo"))
        verb = "Recorded" if stored else "Found (already stored)"
        out.print(f"{verb} the demo match {record.key!r} in {db}", markup=False, highlight=False)
        match, facts = application.facts(record.key)
        out.print(
            ledger_table(match.players, _ledger(match, facts), f"Ledger of {record.key}", numbers=entry_numbers(match))
        )
        _print_status(match.players, _state(match, facts), match.rules)
        out.print(f"Try: honba --db {db} status {record.key}", markup=False, highlight=False)

    guarded(run)
