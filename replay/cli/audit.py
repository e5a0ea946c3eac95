"""``honba amend``, ``void``, ``undo``, ``reopen``, ``check`` and ``audit``: corrections, tamper evidence and
the audit report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from domain.bounds import ENTRY
from domain.integrity import ChainProblem
from projections.ledger import correction_marks
from replay.cli import entry_options as eo
from replay.cli.languages import DEFAULT, Lang, html_language
from replay.cli.layout import Column, Grid
from replay.cli.params import number_argument
from replay.cli.render import digest_line, json_text, ledger_table, print_recorded
from replay.cli.shell import ClientKey, app, guarded, guarded_match, out, shell
from replay.html.pages import render_audit_html
from replay.input.entry import entry_from_line
from replay.input.files import write_whole
from replay.input.json_text import load_line
from replay.input.parsing import InputError
from replay.service.audit.audit import AuditReport, report_data
from replay.service.audit.checks import MatchCheck, audit_failed, audit_match, check_data, check_targets
from replay.service.audit.digests import match_digest, store_digest
from replay.service.common.shapes import counted, describe_fact
from replay.service.recording.entry import (
    CorrectionRequest,
    Entry,
    FieldError,
    apply_correction,
    apply_entry,
    entry_from_fields,
)
from replay.service.recording.recording import Recorded

By = Annotated[str, typer.Option("--by", help="Who makes the correction (the referee).")]
Why = Annotated[str, typer.Option("--reason", help="Why the correction is made.")]


@app.command(context_settings={"allow_interspersed_args": True})
@eo.with_options(eo.WIN_OPTIONS, eo.OTHER_ENTRY_OPTIONS)
def amend(
    ctx: typer.Context,
    key: Annotated[str, typer.Argument(help="The match.")],
    entry: Annotated[
        int,
        number_argument(
            bound=ENTRY,
            help="The entry to correct (a result, a penalty or a correction): its number in honba log, "
            "which is its line in the exported record file.",
        ),
    ],
    by: By,
    reason: Why,
    replacement: Annotated[
        list[str] | None,
        typer.Argument(
            help="The whole replacement typed again, as at the table: win PLAYER:VALUE..., draw, abort KIND, "
            "or penalty PLAYER, with their options."
        ),
    ] = None,
    set_: Annotated[
        list[str] | None,
        typer.Option(
            "--set",
            help="FIELD=VALUE: change one field of the entry as it stands and keep the rest (value=3/30, "
            "riichi=Ann,Cho, value2=mangan, ready=Ann,Dai; docs/web.md lists the fields).",
        ),
    ] = None,
    *,
    options: dict[str, Any],
    result: Annotated[
        str | None,
        typer.Option("--result", help='For tools: the whole replacement as a record line, e.g. {"type": "draw"}.'),
    ] = None,
    client_key: ClientKey = None,
) -> None:
    """Correct a recorded hand result, penalty or correction; the original stays in the log.

    Change some fields of the entry as it stands and keep every other fact: ``--set value=3/30``
    (repeatable). Or give the whole replacement again, everything it holds typed: ``win Ben:4/30
    --from Ann --riichi Ben``, ``draw --ready Ann``, ``abort four_winds``, ``penalty Dai --amount 1000``;
    or, for tools, ``--result`` with a record line. Prints the entry before and after, the payments
    that change and the scores.
    """

    def run() -> Recorded:
        application = shell(ctx).app
        given = [bool(set_), bool(replacement), result is not None]
        if given.count(True) != 1:
            raise InputError(
                "give one of: --set FIELD=VALUE (change those fields, keep the rest), the whole replacement "
                "typed again (win, draw, abort or penalty ...), or --result"
            )
        if set_:
            request = CorrectionRequest("amend", entry, changes=eo.set_fields(set_), by=by, reason=reason)
        else:
            typed = _typed(replacement or []) if result is None else _from_line(result)
            request = CorrectionRequest("amend", entry, entry=typed, by=by, reason=reason)
        return apply_correction(application, key, request, client_key=client_key)

    def _typed(words: list[str]) -> Entry:
        what, rest = words[0], words[1:]
        if what == "win":
            return entry_from_fields(eo.win_fields(rest, options))
        o = options
        if what == "draw" and not rest:
            return entry_from_fields(eo.draw_fields(o["ready"], o["riichi"], o["nagashi"]))
        if what == "abort" and len(rest) == 1:
            return entry_from_fields(eo.abort_fields(rest[0], o["riichi"], o["kongs"]))
        if what == "penalty" and len(rest) == 1:
            return entry_from_fields(eo.penalty_fields(rest[0], o["amount"], o["kind"], o["share"], o["note"]))
        raise InputError(
            f"cannot read the replacement {' '.join(words)!r}: write win PLAYER:VALUE..., draw, abort KIND "
            "or penalty PLAYER, with their options"
        )

    done = guarded_match(ctx, key, run)
    print_recorded(out, done, shell(ctx).checkpoint())


def _from_line(result: str) -> Entry:
    """The replacement written as a record line (``--result``), read as the record file reads it."""
    try:
        # Read as a line of a record file: its depth capped before it is parsed, no number too long.
        data = load_line(result)
    except json.JSONDecodeError as exc:
        raise InputError(f"--result is not JSON ({exc.msg})") from None
    if not isinstance(data, dict):
        raise InputError("--result must be a record line: a JSON object")
    try:
        return entry_from_line(data)
    except FieldError as exc:
        raise InputError(exc.within("--result")) from None


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

    request = CorrectionRequest("void", entry, by=by, reason=reason)
    done = guarded_match(ctx, key, lambda: apply_correction(shell(ctx).app, key, request, client_key=client_key))
    print_recorded(out, done, shell(ctx).checkpoint())


@app.command()
def reopen(
    ctx: typer.Context,
    key: Annotated[str, typer.Argument(help="The match.")],
    by: By,
    reason: Why,
    client_key: ClientKey = None,
) -> None:
    """Reopen a match ended early (agreed, time limit): its end voided, a correction with who and why."""
    request = CorrectionRequest("reopen", by=by, reason=reason)
    done = guarded_match(ctx, key, lambda: apply_correction(shell(ctx).app, key, request, client_key=client_key))
    print_recorded(out, done, shell(ctx).checkpoint())


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
    """Take back the last entry at the table: void the last hand result or penalty, cancel the last
    correction, or reopen a match ended early (its end voided)."""

    def run() -> Recorded:
        return apply_entry(shell(ctx).app, key, Entry("undo"), by=by, reason=reason, client_key=client_key)

    done = guarded_match(ctx, key, run)
    print_recorded(out, done, shell(ctx).checkpoint())


def _checks_table(checks: list[MatchCheck], title: str) -> Grid:
    columns = [
        Column("match or file", key=True),
        Column("events", numeric=True),
        Column("status"),
        Column("head digest"),
    ]
    table = Grid(title, columns)
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
            "history must still hold it. With one FILE or KEY. Or a signed checkpoint's file: the store's "
            "log must still hold it (a consistency proof).",
        ),
    ] = None,
    key: Annotated[
        str | None,
        typer.Option(
            "--key",
            help="The organiser's key for a signed checkpoint given to --against (a verifier key or public key file).",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for tools.")] = False,
) -> None:
    """Check that stored matches (or exported files) are the history honba recorded.

    Exit 0 when everything is intact, 1 when anything was altered, deleted, reordered or
    inserted, a file has no chain to check, or the history no longer holds the --against digest.
    """

    result = guarded(lambda: check_targets(lambda: shell(ctx).reader, targets or [], against, key))
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
            out.print(f"Checkpoints: {store.events}, {state}{notes}", markup=False, soft_wrap=True)
            out.print(digest_line(store_digest(store.head)), markup=False, highlight=False, soft_wrap=True)
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
    lang: Lang = DEFAULT,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for tools.")] = False,
) -> None:
    """Every number of a match explained: ledger, corrections, invariants, integrity, comparisons.

    Exit 0 when all is well, 1 when the chain is broken, an invariant fails or the sheet differs.
    """

    def run() -> AuditReport:
        language = html_language(lang)
        report = audit_match(
            shell(ctx).reader, key, sheet=against, sheet_kind=sheet_kind, as_played=as_played, rules=rules
        )
        if html is not None:
            write_whole(html, render_audit_html(report_data(report), language))
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
    out.print(f"Integrity: {state}; {counted(integrity.events, 'event')}", markup=False)
    out.print(digest_line(match_digest(match.key, integrity.head)), markup=False, highlight=False, soft_wrap=True)
    marks = correction_marks(match.history, match.corrections, match.corrected_steps())
    out.print(
        ledger_table(
            players,
            list(report.entries),
            "Ledger (corrected history)",
            numbers=report.numbers,
            marks=marks,
            scoring=match.rules.scoring,
            clock=[(c["position"], c["text"]) for c in data["clock"]],
        )
    )
    if report.corrections:
        columns = [Column("entry", numeric=True, key=True), Column("kind", key=True), Column("corrects", numeric=True)]
        columns += map(Column, ("original", "replacement", "by", "reason", "when"))
        table = Grid("Corrections (the originals stay in the log)", columns)
        for c in report.corrections:
            table.add_row(
                str(c.entry),
                c.kind,
                "" if c.target is None else str(c.target),
                "" if c.original is None else describe_fact(c.original, players, match.rules.scoring),
                "" if c.replacement is None else describe_fact(c.replacement, players, match.rules.scoring),
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
            out.print(f"The sheet ({how}, {counted(sheet.rows, 'row')}) agrees with the ledger.", markup=False)
        else:
            first = sheet.first_difference
            out.print(f"The sheet ({how}) first parts from the ledger at {first.hand}: {first.text}", markup=False)
            for other_difference in sheet.differences[1:]:
                out.print(f"  also at {other_difference.hand}: {other_difference.text}", markup=False)
    if report.what_if is not None:
        what = report.what_if
        table = Grid(
            f"What if: {match.rules.name} against {what.rules.name}",
            [Column("", key=True), *(Column(name, numeric=True) for name in players)],
        )
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
