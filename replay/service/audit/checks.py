"""``honba check`` and ``honba audit`` as use cases: they decide, the command line only presents.

``check_targets`` checks record files, stored matches or the whole store (with a published head
digest, ``--against``); ``audit_match`` builds the audit report of a stored match. Both return
values whose plain data is in ``replay.service.common.shapes`` (``check_data``) and ``replay.service.audit.audit``
(``report_data``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs

from domain.integrity import ChainProblem, published_digest
from domain.match import match_id
from replay.formats.note import parse_checkpoint, parse_note
from replay.formats.record import check_record_text
from replay.formats.source import decoded_text, read_source
from replay.input.files import read_capped
from replay.input.parsing import InputError
from replay.service.audit.audit import AuditReport, SheetError, build_report, read_sheet
from replay.service.audit.proofs import read_note_file, read_verifier, store_against_checkpoint
from replay.service.common.rules import resolve_rules
from replay.store.application import HonbaApp
from replay.store.evidence import read_evidence

# MatchCheck: what a check found, the type the front ends show (they take it from here).
from replay.store.findings import MatchCheck as MatchCheck
from replay.store.integrity import check_match
from replay.store.store_check import check_store
from replay.store.streams import holds_stream

SHEET_KINDS = ("auto", "scores", "changes")


@attrs.frozen
class CheckRun:
    """What ``honba check`` found: one check per file or match, and the checkpoints' (with the store
    chain of a store written before them) when the whole store was checked."""

    checks: tuple[MatchCheck, ...]
    store: MatchCheck | None = None

    @property
    def intact(self) -> bool:
        """Nothing altered, deleted, reordered or inserted anywhere checked (exit 0)."""
        return all(c.intact for c in self.checks) and (self.store is None or self.store.intact)


def check_targets(
    open_app: Callable[[], HonbaApp], targets: Sequence[str], against: str | None = None, key: str | None = None
) -> CheckRun:
    """Check record files or stored matches (by key), or with no target the whole store.

    ``open_app`` opens the store only when a stored match is asked for: checking files needs none.
    ``against`` is a head digest published earlier, compared with one target or the store's chain;
    or a signed checkpoint's file (``replay.service.audit.proofs``), which the store's log must still hold
    as a prefix of its own (a consistency proof), checked with the organiser's key ``key`` (a
    verifier key or public key file; by default the one the store signed its checkpoints with).
    """
    if against is not None and not targets and Path(against).is_file():
        application = open_app()
        evidence = read_evidence(application)
        return CheckRun(
            tuple(check_store(application, evidence)), _against_signed(application, evidence.check, against, key)
        )
    if key is not None:
        raise InputError("--key names the organiser's key of a signed checkpoint given to --against")
    published = None
    if against is not None:
        if len(targets) > 1:
            raise InputError("--against compares one file or match (or the store) with its published digest")
        try:
            published = published_digest(against)
        except ValueError as exc:
            raise InputError(str(exc)) from None
    if not targets:
        # The whole store: every match and tournament, and the checkpoints themselves, which
        # --against compares with the store head digest published earlier.
        application = open_app()
        evidence = read_evidence(application)
        store = evidence.check if published is None else evidence.check.against(published)
        return CheckRun(tuple(check_store(application, evidence)), store)
    results = [check_target(open_app, t) for t in targets]
    if published:
        results = [result.against(published) for result in results]
    return CheckRun(tuple(results))


def _against_signed(application: HonbaApp, store: MatchCheck, path: str, key: str | None) -> MatchCheck:
    """The store's check with a signed checkpoint compared: a problem when the store's log does not
    hold it (rolled back, forked, or a note not signed by the organiser's key)."""
    text = read_note_file(Path(path))
    checker = None
    if key is not None:
        checker = read_verifier(key, parse_checkpoint(parse_note(text, path).text, path).origin)
    problem = store_against_checkpoint(application, text, checker)
    if problem is None:
        size = parse_checkpoint(parse_note(text, path).text, path).size
        return attrs.evolve(store, notes=(*store.notes, f"the signed checkpoint of {size} leaves is in its log"))
    return attrs.evolve(store, problems=(*store.problems, ChainProblem(store.events, "altered", f"{path}: {problem}")))


def check_target(open_app: Callable[[], HonbaApp], target: str) -> MatchCheck:
    """Check one exported record file, or else one stored match named by its key."""
    path = Path(target)
    if not path.is_file():
        application = open_app()
        if not holds_stream(application, match_id(target)):
            raise InputError(f"{target}: no such file, and no match of that key in the store")
        return check_match(application, match_id(target), target, read_evidence(application))
    try:
        # Read as honba import reads it: at most MAX_FILE bytes, gunzipped when compressed.
        text = decoded_text(read_source(path))
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not a record file: not UTF-8 text (byte {exc.start})") from None
    report = check_record_text(text, name=str(path))
    return MatchCheck(
        report.name,
        report.lines,
        report.head,
        report.problems,
        sealed=report.chained,
        digests=report.digests,
        noun="line",
    )


def audit_match(
    application: HonbaApp,
    key: str,
    *,
    sheet: Path | None = None,
    sheet_kind: str = "auto",
    as_played: bool = False,
    rules: str | None = None,
) -> AuditReport:
    """The audit of a stored match: its integrity, a claimed score sheet compared (CSV, ``sheet``),
    and the match re-scored under other rules (a preset or rule file, ``rules``)."""
    if sheet_kind not in SHEET_KINDS:
        raise InputError(f"--sheet-kind must be auto, scores or changes, not {sheet_kind!r}")
    match = application.get_match(key)
    integrity = check_match(application, match.id, key, read_evidence(application))
    rows = None
    if sheet is not None:
        rows = read_sheet(_sheet_text(sheet), match.players, name=str(sheet))
    other = resolve_rules(rules) if rules is not None else None
    return build_report(match, integrity, sheet=rows, sheet_kind=sheet_kind, other_rules=other, as_played=as_played)


def _sheet_text(sheet: Path) -> str:
    """A score sheet's text: at most ``MAX_FILE`` bytes of UTF-8 (a binary file is refused in one line)."""
    try:
        return decoded_text(read_capped(sheet, what="score sheet"))
    except UnicodeDecodeError as exc:
        raise SheetError(f"{sheet}: not a CSV score sheet: not UTF-8 text (byte {exc.start})") from None


def audit_failed(report: AuditReport) -> bool:
    """Something is wrong with the record (exit 1): its chain, an invariant, or the claimed sheet."""
    broken = not report.integrity.intact or any(f.kind == "invariant" for f in report.findings)
    return broken or (report.sheet is not None and report.sheet.first_difference is not None)


def check_data(run: CheckRun) -> dict[str, Any]:
    """``honba check --json``: ``{"checked": int, "intact": bool, "results": [one per file or match:
    {"name", "events", "head", "intact", "sealed", "problems": [{"kind", "position", "detail"}],
    "notes": [str]}], "store": the checkpoints' check in the same shape (``events``: how many), only
    when the whole store was checked}`` (docs/audit.md)."""
    data: dict[str, Any] = {
        "checked": len(run.checks),
        "intact": run.intact,
        "results": [c.as_dict() for c in run.checks],
    }
    if run.store is not None:
        data["store"] = run.store.as_dict()
    return data
