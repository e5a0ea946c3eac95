"""What ``honba check`` and ``honba audit`` find wrong with a stored match, for every place that shows it.

One function says it (``match_damage_lines``) and every reader shows what it returns: ``honba
status`` (a warning line each), the table page and the referee's pages (a warning), the JSON API
(``damage``: the lines), the standings (``tournament_damage``: a warning naming each match). It
finds what the store's own check finds, reading the checkpoints once (``read_evidence``): an
event altered, deleted, reordered or inserted, the seal removed, the match rolled back behind a
checkpoint that covered it, the checkpoints themselves changed (a leaf or a tree head); and what
the audit finds in a history whose digests were all recomputed: an event stored after the match
ended (``replay.service.audit.audit.after_the_end``).

Reading the checkpoints is a read of every checkpoint row: a page asks once per request.
"""

from __future__ import annotations

from collections.abc import Iterable

from domain.integrity import KINDS
from domain.match import Match, match_id
from domain.said import Said
from domain.store_errors import DamagedMatch, MatchNotFound
from replay.service.audit.audit import after_the_end
from replay.store.application import HonbaApp, Shown
from replay.store.evidence import Evidence, read_evidence
from replay.store.integrity import check_match, check_rows, damage_line, damaged_said


def match_damage_lines(
    store: HonbaApp, key: str, match: Match | None = None, evidence: Evidence | None = None, shown: Shown | None = None
) -> tuple[Said, ...]:
    """Every line naming what is wrong with a stored match (none: nothing is), as ``honba check``
    (against the checkpoints) and ``honba audit`` (events after the end) find it. ``match``: the
    match already read, when the caller has it; ``evidence``: the checkpoints already read;
    ``shown``: the match as ``HonbaApp.read`` read it, whose rows are then checked against the
    checkpoints as read (not read and hashed again). Each line is words (its ``str()`` the English
    ``honba check`` prints), said in the page's language where a page shows it."""
    return tuple(damaged_said(key, why, audit=late) for why, late in _whys(store, key, match, evidence, shown))


def _whys(
    store: HonbaApp, key: str, match: Match | None, evidence: Evidence | None, shown: Shown | None = None
) -> list[tuple[Said | str, bool]]:
    """What is wrong, each with whether the audit (not the check) finds it."""
    evidence = evidence if evidence is not None else read_evidence(store)
    if shown is not None and shown.rows is not None and shown.check is not None:
        events, seal = shown.rows
        check = check_rows(key, match_id(key), events, seal, evidence, digests=shown.check.digests)
    else:
        check = check_match(store, match_id(key), key, evidence)
    if check.events == 0 and damage_line(key, check) is None:
        return []  # no such match
    whys: list[tuple[Said | str, bool]] = []
    for problem in check.problems:
        whys.append((problem.said(), False))
    for problem in evidence.check.problems:
        said = Said(
            "the store's checkpoints are {kind} at {position} ({detail})",
            kind=KINDS.get(problem.kind, problem.kind),
            position=problem.position,
            detail=problem.detail,
        )
        whys.append((said, False))
    if match is None and not check.problems:
        try:
            match = store.get_match(key)
        except (DamagedMatch, MatchNotFound) as exc:
            return [*whys, (exc.said, False)]
    if match is not None:
        whys += [(finding.text, True) for finding in after_the_end(match)]
    return whys


def tournament_damage(store: HonbaApp, keys: Iterable[str]) -> dict[str, Said | str]:
    """Why each of these stored matches (a tournament's) is damaged, the first thing found, by key;
    the matches found intact are left out. The checkpoints are read once for all of them."""
    evidence = read_evidence(store)
    found: dict[str, Said | str] = {}
    for key in keys:
        whys = _whys(store, key, None, evidence)
        if whys:
            found[key] = whys[0][0]
    return found
