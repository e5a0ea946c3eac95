"""``honba amend``, ``void``, ``check`` and ``audit``: corrections, tamper evidence and the audit report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from domain.bounds import ENTRY, PENALTY_AMOUNT
from domain.integrity import ChainProblem
from domain.match import Match
from domain.values import AbortiveDraw, AbortKind, ExhaustiveDraw, HandResult, Penalty, TableState
from projections.ledger import correction_marks
from replay.audit import AuditReport, report_data
from replay.cli.params import number_argument, number_option
from replay.cli.shell import ClientKey, app, guarded, guarded_match, out, shell
from replay.formats.record import fact_from_line
from replay.formats.record.chain import load_line
from replay.integrity import MatchCheck
from replay.parsing import InputError, seat_of, seats_of
from replay.render import json_text, ledger_table, state_lines, status_table
from replay.service.checks import audit_failed, audit_match, check_targets
from replay.service.entry import penalty_fact, win_result
from replay.service.shapes import check_data, describe_fact

By = Annotated[str, typer.Option("--by", help="Who makes the correction (the referee).")]
Why = Annotated[str, typer.Option("--reason", help="Why the correction is made.")]


@app.command(context_settings={"allow_interspersed_args": True})
def amend(
    ctx: typer.Context,
    key: Annotated[str, typer.Argument(help="The match.")],
    entry: Annotated[
        int,
        number_argument(
            bound=ENTRY,
            help="The entry to replace (a result, a penalty or a correction): its number in honba log, "
            "which is its line in the exported record file.",
        ),
    ],
    by: By,
    reason: Why,
    replacement: Annotated[
        list[str] | None,
        typer.Argument(
            help="The replacement as typed at the table: win PLAYER:VALUE..., draw, abort KIND, or penalty PLAYER."
        ),
    ] = None,
    from_: Annotated[str | None, typer.Option("--from", help="win: the discarder; none for self-drawn.")] = None,
    pao: Annotated[str | None, typer.Option(help="win: the player liable (pao).")] = None,
    riichi: Annotated[str | None, typer.Option(help="Players whose riichi was accepted in the hand.")] = None,
    dora: Annotated[int | None, typer.Option(help="win: han from dora.")] = None,
    ready: Annotated[str | None, typer.Option(help="draw: the players ready.")] = None,
    nagashi: Annotated[str | None, typer.Option(help="draw: players claiming nagashi mangan.")] = None,
    kongs: Annotated[str | None, typer.Option(help="abort: who declared each kong, in order.")] = None,
    amount: Annotated[
        int | None,
        number_option("--amount", bound=PENALTY_AMOUNT, help="penalty: points; default the rules' chombo amount."),
    ] = None,
    kind: Annotated[str, typer.Option(help="penalty: what it is for.")] = "chombo",
    share: Annotated[str | None, typer.Option(help="penalty: to_others, reverse_mangan or off_table.")] = None,
    note: Annotated[str, typer.Option(help="penalty: a note for the record.")] = "",
    result: Annotated[
        str | None,
        typer.Option("--result", help='For tools: the replacement as a record line, e.g. {"type": "draw"}.'),
    ] = None,
    client_key: ClientKey = None,
) -> None:
    """Replace a recorded hand result, penalty or correction; the original stays in the log.

    The replacement is typed as at the table: ``win Ben:4/30 --from Ann``, ``draw --ready Ann``,
    ``abort four_winds``, ``penalty Dai --amount 1000``; or, for tools, ``--result`` with a record line.
    """

    def run() -> None:
        application = shell(ctx).app
        match = application.get_match(key)
        if (result is None) == (not replacement):
            raise InputError("give the replacement as typed (win, draw, abort or penalty ...) or --result, one of them")
        if result is None:
            fact = _replacement(match, words=replacement or [])
        else:
            fact = _from_line(match, shell(ctx).app.table_before(key, entry), result)
        application.amend(key, entry, fact, by=by, reason=reason, client_key=client_key)
        out.print(f"Amended entry {entry} of {key!r}; the original stays in the log.", markup=False)

    def _replacement(match: Match, words: list[str]) -> HandResult | Penalty:
        what, rest = words[0], words[1:]
        players = match.players
        if what == "win":
            if not rest:
                raise InputError("win needs PLAYER:VALUE for each winner, e.g. win Ben:4/30 --from Ann")
            discarder = seat_of(from_, players) if from_ else None
            liable = seat_of(pao, players) if pao else None
            return win_result(players, rest, discarder, liable, riichi, dora)
        if what == "draw" and not rest:
            return ExhaustiveDraw(seats_of(ready, players), seats_of(riichi, players), seats_of(nagashi, players))
        if what == "abort" and len(rest) == 1:
            kinds = [k.value for k in AbortKind]
            if rest[0] not in kinds:
                raise InputError(f"abort needs one of {', '.join(kinds)}, not {rest[0]!r}")
            return AbortiveDraw(AbortKind(rest[0]), seats_of(riichi, players), seats_of(kongs, players))
        if what == "penalty" and len(rest) == 1:
            state = shell(ctx).app.table_before(key, entry)
            return penalty_fact(players, state, match.rules, rest[0], amount, kind, share, note)
        raise InputError(
            f"cannot read the replacement {' '.join(words)!r}: write win PLAYER:VALUE..., draw, abort KIND "
            "or penalty PLAYER, with their options"
        )

    guarded_match(ctx, key, run)


def _from_line(match: Match, table: TableState, result: str) -> HandResult | Penalty:
    """The replacement written as a record line (``--result``); a penalty is sized at ``table``,
    the table of the entry it replaces."""
    try:
        # Read as a line of a record file: its depth capped before it is parsed, no number too long.
        data = load_line(result)
    except json.JSONDecodeError as exc:
        raise InputError(f"--result is not JSON ({exc.msg})") from None
    if not isinstance(data, dict):
        raise InputError("--result must be a record line: a JSON object")
    replacement = fact_from_line(data, match.players, "--result", table, match.rules)
    if not isinstance(replacement, Penalty) and data.get("type") not in ("win", "draw", "abort"):
        raise InputError("--result must be a win, draw, abort or penalty line")
    return replacement  # type: ignore[return-value]


@app.command()
def void(
    ctx: typer.Context,
    key: Annotated[str, typer.Argument(help="The match.")],
    entry: Annotated[
        int,
        number_argument(
            bound=ENTRY,
            help="The entry to void (a hand result, a penalty, or a correction to cancel): its number in honba log, "
            "which is its line in the exported record file.",
        ),
    ],
    by: By,
    reason: Why,
    client_key: ClientKey = None,
) -> None:
    """Void a recorded hand result, cancel a penalty or a correction (undo a void); the original stays in the log."""

    def run() -> None:
        shell(ctx).app.void(key, entry, by=by, reason=reason, client_key=client_key)
        out.print(f"Voided entry {entry} of {key!r}; the original stays in the log.", markup=False)

    guarded_match(ctx, key, run)


def _problem_text(problem: ChainProblem) -> str:
    where = f" at {problem.position}" if problem.position else ""
    return f"{problem.kind}{where}: {problem.detail}"


@app.command()
def undo(
    ctx: typer.Context,
    key: Annotated[str, typer.Argument(help="The match.")],
    by: Annotated[str, typer.Option("--by", help="Who takes it back.")] = "the recorder",
    reason: Annotated[str, typer.Option("--reason", help="Why.")] = "undone at the table",
    client_key: ClientKey = None,
) -> None:
    """Take back the last entry at the table: void the last hand result or penalty, or cancel the last correction."""

    def run() -> None:
        match, entry = shell(ctx).app.undo(key, by=by, reason=reason, client_key=client_key)
        out.print(f"Undid entry {entry} of {key!r}; the original stays in the log.", markup=False)
        for line in state_lines(match.players, match.state, match.rules):
            out.print(line, markup=False, highlight=False)
        out.print(status_table(match.players, match.state, "Scores"))

    guarded_match(ctx, key, run)


def _checks_table(checks: list[MatchCheck], title: str) -> Table:
    table = Table(title=title)
    for column in ("match or file", "events", "status", "head digest"):
        table.add_column(column, overflow="fold")
    for check in checks:
        if check.intact:
            status = "; ".join(("intact", *check.notes))
        else:
            status = "; ".join(_problem_text(p) for p in check.problems)
        table.add_row(check.name, str(check.events), status, check.head[:16])
    return table


@app.command()
def check(
    ctx: typer.Context,
    targets: Annotated[
        list[str] | None,
        typer.Argument(help="Exported record files, or keys of stored matches; without any, the whole store."),
    ] = None,
    against: Annotated[
        str | None,
        typer.Option(
            "--against",
            help="A head digest published earlier (16 to 64 hex characters): the file's or match's "
            "history must still hold it. With one FILE or KEY.",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for tools.")] = False,
) -> None:
    """Check that stored matches (or exported files) are the history honba recorded.

    Exit 0 when everything is intact, 1 when anything was altered, deleted, reordered or
    inserted, a file has no chain to check, or the history no longer holds the --against digest.
    """

    result = guarded(lambda: check_targets(lambda: shell(ctx).app, targets or [], against))
    checks, store = list(result.checks), result.store
    if as_json:
        print(json_text(check_data(result)))
    else:
        out.print(_checks_table(checks, "Integrity"))
        broken = [c for c in checks if not c.intact]
        out.print(f"{len(checks)} checked, {len(broken)} with problems", markup=False)
        if store is not None:
            state = "intact" if store.intact else "BROKEN: " + "; ".join(_problem_text(p) for p in store.problems)
            notes = "".join(f"; {note}" for note in store.notes)
            out.print(
                f"Store chain: {store.events} links, {state}{notes}; store head digest {store.head}", soft_wrap=True
            )
    if not result.intact:
        raise typer.Exit(1)


@app.command()
def audit(
    ctx: typer.Context,
    key: Annotated[str, typer.Argument(help="The match.")],
    against: Annotated[Path | None, typer.Option(help="A claimed score sheet (CSV) to compare with.")] = None,
    sheet_kind: Annotated[str, typer.Option(help="auto, scores (after each hand) or changes (in each hand).")] = "auto",
    as_played: Annotated[
        bool, typer.Option("--as-played", help="Compare the sheet with the history as played, not as corrected.")
    ] = False,
    rules: Annotated[str | None, typer.Option("--rules", help="Re-score under another preset or rule file.")] = None,
    html: Annotated[Path | None, typer.Option("--html", help="Also write a self-contained HTML report here.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for tools.")] = False,
) -> None:
    """Every number of a match explained: ledger, corrections, invariants, integrity, comparisons.

    Exit 0 when all is well, 1 when the chain is broken, an invariant fails or the sheet differs.
    """

    def run() -> AuditReport:
        report = audit_match(
            shell(ctx).app, key, sheet=against, sheet_kind=sheet_kind, as_played=as_played, rules=rules
        )
        if html is not None:
            from replay.formats.files import write_whole
            from replay.html.pages import render_audit_html

            write_whole(html, render_audit_html(report_data(report)))
        return report

    report = guarded_match(ctx, key, run)
    data = guarded_match(ctx, key, lambda: report_data(report))
    if as_json:
        print(json_text(data))
    else:
        guarded_match(ctx, key, lambda: _print_audit(report, data))
    if html is not None and not as_json:
        out.print(f"HTML report written to {html}", markup=False)
    if audit_failed(report):
        raise typer.Exit(1)


def _print_audit(report: AuditReport, data: dict[str, Any]) -> None:
    players = report.players
    match = report.match
    out.print(f"Audit of {match.key!r}: {', '.join(players)} under {match.rules.name}", markup=False)
    integrity = report.integrity
    state = (
        "intact"
        if integrity.intact
        else "BROKEN: " + "; ".join(f"{p.kind} at {p.position}" for p in integrity.problems)
    )
    out.print(f"Integrity: {state}; {integrity.events} events; head digest {integrity.head}", markup=False)
    marks = correction_marks(match.history, match.corrections, match.corrected_steps())
    out.print(
        ledger_table(players, list(report.entries), "Ledger (corrected history)", numbers=report.numbers, marks=marks)
    )
    if report.corrections:
        table = Table(title="Corrections (the originals stay in the log)")
        for column in ("entry", "kind", "corrects", "original", "replacement", "by", "reason", "when"):
            table.add_column(column, overflow="fold")
        for c in report.corrections:
            table.add_row(
                str(c.entry),
                c.kind,
                "" if c.target is None else str(c.target),
                "" if c.original is None else describe_fact(c.original, players),
                "" if c.replacement is None else describe_fact(c.replacement, players),
                c.by,
                c.reason,
                c.at,
            )
        out.print(table)
    if report.findings:
        for finding in report.findings:
            out.print(f"{finding.kind}: {finding.hand}: {finding.text}", markup=False)
    else:
        out.print(
            "Invariants hold: every hand sums to zero apart from deposits, deposits are conserved, "
            "the final scores are the start plus every payment.",
            markup=False,
        )
    if report.sheet is not None:
        sheet = report.sheet
        how = f"{sheet.kind}; the {sheet.history} history, rows matched {sheet.aligned}"
        if sheet.first_difference is None:
            out.print(f"The sheet ({how}, {sheet.rows} rows) agrees with the ledger.", markup=False)
        else:
            first = sheet.first_difference
            out.print(f"The sheet ({how}) first parts from the ledger at {first.hand}: {first.text}", markup=False)
            for other_difference in sheet.differences[1:]:
                out.print(f"  also at {other_difference.hand}: {other_difference.text}", markup=False)
    if report.what_if is not None:
        what = report.what_if
        table = Table(title=f"What if: {match.rules.name} against {what.rules.name}")
        table.add_column("", overflow="fold")
        for name in players:
            table.add_column(name, justify="right", overflow="fold")
        table.add_row("final scores", *(f"{s:,}" for s in report.final.scores))
        table.add_row(f"under {what.rules.name}", *(f"{s:,}" for s in what.final_scores))
        table.add_row(
            "change", *(f"{new - old:+,}" for old, new in zip(report.final.scores, what.final_scores, strict=True))
        )
        if what.final_points and report.final.final_points:
            table.add_row("final points", *(f"{p:+.1f}" for p in report.final.final_points))
            table.add_row(f"under {what.rules.name}", *(f"{p:+.1f}" for p in what.final_points))
        out.print(table)
        changed = ", ".join(what.changed_hands) or "none"
        out.print(f"Hands whose payments change: {changed}", markup=False)
        for label, diff in what.hand_changes:
            moves = ", ".join(f"{name} {d:+,}" for name, d in zip(players, diff, strict=True) if d)
            out.print(f"  {label}: {moves}", markup=False)
        for note in what.notes:
            out.print(f"{note.hand}: {note.text}", markup=False)
