"""The stored standings: per-match summaries and tournament standings, kept event by event.

``StandingsProjection`` is an ``eventsourcing.projection.Projection`` over the
events of matches and tournaments. It keeps, as view documents:

- ``match/<id>``: what a summary needs of a match (players, the reference of its rules,
  opening, its history and every correction at its own position), folded from the match's
  own events; the corrections in force are the domain's (``domain.amendments.resolve_corrections``);
- ``rules/<reference>``: a set of rule values, stored once for every match played under it
  (the reference is made of the values: the same values, the same document);
- ``summary/<match key>``: the match summary (``projections.standings.MatchSummary``);
- ``tournament/<id>``: players and aliases; ``entry/<id>/<match key>``: a match that counts,
  its session and table;
- ``attached/<match key>``: the tournaments a match counts for;
- ``standings/<name>``: the ranked standings of the tournament;
- ``stats/<match key>``: the match's player statistics (``projections.stats.MatchStats``);
- ``view/format``: the layout of these documents (``FORMAT``) and the position of the log they
  were written at (the tracked position must agree);
- in every document, ``_schema``: the schema of its kind it was written in (``DOC_SCHEMA``);
- ``totals/<tournament id>``: the tournament's running totals by player name (``count_match``),
  how many of its matches are in progress, and which are damaged (``mark_damaged``);
- ``damaged/<match key>``: why a match is damaged, as the view saw it when it folded it (its
  chain broken, a fact the table cannot hold), kept as words (``domain.said.said_data``: the
  template and its fields), so that a page says it again in its own language.

Every document is computed by the same domain folds as everything else; the view
only stores them, with the tracking record, in one transaction.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Iterable, Sequence
from itertools import chain
from operator import itemgetter
from typing import Any

import attrs
import orjson
from eventsourcing.persistence import Tracking
from eventsourcing.projection import Projection

from domain.amendments import CorrectedStep, Correction, corrected_steps, effective_facts, resolve_corrections
from domain.codec import exact_data, fact_from_data, fact_to_data
from domain.errors import HonbaError
from domain.integrity import (
    SORTED,
    event_digest,
    exact_numbers,
    json_exactly,
    plain_canonical,
    plain_items,
    written_exactly,
)
from domain.match import Match, opening_state, stored_rules
from domain.match import match_id as match_id_of
from domain.rules import Ruleset
from domain.said import Said, said_data, said_from_data
from domain.tournament import Tournament
from projections.standings import MatchSummary, StandingRow, Totals, rank, standings, summarize
from projections.stats import MatchStats, match_stats
from projections.views import DocKey, DocumentView, POPODocumentView, ViewMoved

NAME = "honba-standings"
# The layout of the view's documents; a view written in another is rebuilt, never read.
# 3: a match keeps its correction log (each correction at its own position), not one per target.
# 4: a match refers to its rule values (``rules/<reference>``) instead of holding a copy: two
#    thirds of a match document were its rules.
# 5: a match keeps the head digest and position it was folded up to (its chain followed, a break
#    kept as ``broken``); a tournament's totals count its matches in progress and name its damaged
#    ones (``damaged/<match key>``), and its standings document says them: ``honba standings``
#    answers from that one document.
# 6: a tournament says whether it is staged (``staged``: a format declared, a player withdrawn, a
#    substitute seated, a team): its standings are then the event's (``projections.staged``), not
#    its matches added up flat, and a view written before did not say.
# 7: why a match is damaged (``broken``, ``unreadable``, ``damaged/<match key>``, a tournament's
#    totals and standings) is kept as words (``said_data``: template and fields), not English text: a
#    page says it in its language. An older view held only the English, which no upgrade can make
#    words of, so it is rebuilt.
# 8: each document's text is its canonical JSON, compact (``projections.views.encoded``: orjson where
#    it writes the same), no longer the standard encoder's default separators; readers parse either,
#    but a view is one encoding throughout, so an older one is rebuilt; a rules reference is the
#    digest of the values' canonical JSON (``rules_ref``).
FORMAT = 8

# Each stored document carries the schema it was written in (``_schema``; a document written
# before documents carried one is at 1). A field added to a kind of document bumps its schema
# here with an upgrade that gives an older document the new field's default when it is read, so
# a view written by an older honba is read as it is (and rewritten in the new shape as its
# matches change); a layout no upgrade can read bumps ``FORMAT`` instead (the view is rebuilt).
SCHEMA_KEY = "_schema"
# 2 (stats): the counts of hands with an open call and of hands whose calls a log showed.
# 2 (summary): a match in progress's hand and provisional points.
DOC_SCHEMA: dict[str, int] = {"stats": 2, "summary": 2}


class ViewTooNew(HonbaError):
    """A document of the view was written by a newer honba, in a schema this one cannot read."""


class ViewDamaged(HonbaError):
    """The view lacks a document another one refers to (changed behind honba's back)."""


SUMMARY_FIELDS = tuple(field.name for field in attrs.fields(MatchSummary))

# A match's fold as its ``Match`` made it: the table now, the corrected facts, the corrected steps.
Scored = tuple[Any, list[Any], list[CorrectedStep]]


def rules_ref(values: dict[str, Any], written: bytes | None = None) -> str:
    """The reference of a set of rule values: their name and a digest of the values' canonical JSON
    (``domain.integrity.plain_canonical``, by orjson: the bytes ``domain.match.stored_rules`` finds
    the rules by; since layout 8, before it the standard encoder's default text). ``written``: those
    bytes, when the caller has them."""
    digest = hashlib.sha256(plain_canonical(values) if written is None else written).hexdigest()[:16]
    return f"{values.get('name', '')}-{digest}"


def _same_types(a: Any, b: Any) -> bool:
    """Whether two equal values are also of the same types throughout (``True == 1`` and
    ``1 == 1.0`` in Python, but not in their JSON, nor in their reference)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return all(_same_types(value, b[key]) for key, value in a.items())
    if isinstance(a, list | tuple):
        return all(_same_types(x, y) for x, y in zip(a, b, strict=True))
    return True


def _stats_v2(data: dict[str, Any]) -> None:
    # Nothing was counted of calls when the document was written: none known, none made.
    for counts in data.get("counts", []):
        counts.setdefault("called", 0)
        counts.setdefault("call_hands", 0)


def _summary_v2(data: dict[str, Any]) -> None:
    # Written before they were kept: shown as unknown until the match's next event rewrites it.
    data.setdefault("hand", "")
    data.setdefault("provisional_points", [])


UPGRADES: dict[tuple[str, int], Callable[[dict[str, Any]], None]] = {
    ("stats", 1): _stats_v2,
    ("summary", 1): _summary_v2,
}


def read_doc(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """A stored document in the current schema of its kind: upgraded when older, refused when newer."""
    version = data.pop(SCHEMA_KEY, 1)
    current = DOC_SCHEMA.get(kind, 1)
    if not isinstance(version, int) or version > current:
        raise ViewTooNew(
            Said(
                "the standings view holds a {kind} document of schema {version}, newer than this honba "
                "reads ({current}): use the honba that wrote it, or delete the view to rebuild it",
                kind=repr(kind),
                version=repr(version),
                current=current,
            )
        )
    for step in range(version, current):
        UPGRADES[(kind, step)](data)
    return data


def stamped(kind: str, data: dict[str, Any] | None) -> dict[str, Any] | None:
    """A document as stored: with the schema of its kind (None, a deletion, stays None)."""
    return None if data is None else {**data, SCHEMA_KEY: DOC_SCHEMA.get(kind, 1)}


class DocCache:
    """Documents read from the view once, changed in memory, written back together.

    ``summaries`` (optional) holds match summaries already read or computed, by match key,
    kept across the batches of one catch-up by its caller: a tournament's standings, computed
    again after every batch, then need no reading of every summary again. Summaries this
    cache computes go there only once written (``remember``).
    """

    def __init__(self, view: DocumentView, summaries: dict[str, MatchSummary] | None = None):
        self.view = view
        self._docs: dict[DocKey, dict[str, Any] | None] = {}
        self.changed: set[DocKey] = set()
        self.dirty_matches: set[str] = set()
        self.dirty_tournaments: set[str] = set()
        self.summaries = summaries
        self._new_summaries: dict[str, MatchSummary] = {}
        self._dropped: set[str] = set()
        # The facts of matches whose every event this cache has folded, as the objects the events
        # carry (by match id): a catch-up then does not decode them again from the documents.
        self.histories: dict[str, list[tuple[int, Any]]] = {}
        # Rule values met by this cache with their reference, and the rules built by reference. By
        # their canonical bytes, where orjson writes them (``written_exactly``: rules are plain JSON,
        # always): the same bytes are the same values of the same types, and the reference is made of
        # them; a rebuild meets hundreds of rule sets (a log's rules name its room), each new match's
        # compared with every one met before, their types walked in Python where the values were equal.
        # Else by their values and types. Kept per cache, never per process: a reference is trusted
        # only as far as the view document this cache read for it.
        self._refs_by_bytes: dict[bytes, str] = {}
        self._refs: list[tuple[dict[str, Any], str]] = []
        # The canonical bytes of some documents' data as put, by key (a match's rules, written for
        # their reference): ``match_documents`` gives their text from them (``_stamped_text``).
        self.written: dict[DocKey, bytes] = {}
        self._rulesets: dict[str, Ruleset] = {}
        self._ids: dict[Any, str] = {}
        self._last_id: Any = _NO_ID
        self._last_key = ""
        # How to read one match's every event from the store, in the order of its positions (given
        # by a catch-up): a match whose events the log put out of order is folded from them.
        self.reread: Callable[[Any], list[Any]] | None = None
        # What a batch read worked out of its events already (``ReadEvent``), by the event's id():
        # the events stay alive with the batch, and each entry names its event to be sure.
        self.read: dict[int, ReadEvent] = {}
        # Matches scored already, by match id: the table now, the corrected facts and the corrected
        # steps their ``Match`` worked out as an import built it (``match_documents``), which the
        # flush takes instead of replaying the match document again.
        self.scored: dict[str, Scored] = {}

    def read_of(self, event: Any) -> ReadEvent | None:
        """What the batch read worked out of this very event, if it did."""
        found = self.read.get(id(event))
        return found if found is not None and found.event is event else None

    def key_of(self, originator_id: Any) -> str:
        """The document key of an aggregate id (the text of a UUID is made once per cache)."""
        # A match's events follow one another and carry the very same id object: by identity, the
        # id (a UUID, hashed in Python) is neither hashed nor looked up again for each of them.
        if originator_id is self._last_id:
            return self._last_key
        key = self._ids.get(originator_id)
        if key is None:
            key = self._ids[originator_id] = str(originator_id)
        self._last_id, self._last_key = originator_id, key
        return key

    def rules_ref(self, values: dict[str, Any]) -> str:
        """The reference of a match's rule values; their document is written with the batch."""
        # The values' canonical bytes, where orjson writes them as the standard encoder does (rules
        # are plain JSON: always), are ``plain_canonical``'s: the reference's, and the document's.
        written = written_exactly(values)
        if written is not None:
            ref = self._refs_by_bytes.get(written)
            if ref is not None:
                return ref
        else:
            for known, ref in self._refs:
                if known == values and _same_types(known, values):
                    return ref
        ref = rules_ref(values, written)
        # The same reference always holds the same values: writing it again changes nothing.
        self.put("rules", ref, dict(values))
        if written is not None:
            self._refs_by_bytes[written] = ref
            self.written[("rules", ref)] = written
        else:
            self._refs.append((dict(values), ref))
        return ref

    def known_rules(self, ref: str, rules: Ruleset) -> None:
        """The rules built already from the values of this reference (``domain.match.stored_rules``)."""
        self._rulesets[ref] = rules

    def rules(self, ref: str) -> Ruleset:
        """The rules a match document refers to, built once per set of values."""
        rules = self._rulesets.get(ref)
        if rules is None:
            values = self.get("rules", ref)
            if values is None:
                raise ViewDamaged(
                    Said("the standings view lacks the rules {ref} a match refers to: delete the view", ref=repr(ref))
                )
            # The domain's, built once per set of values in a process (an import built them already).
            rules = self._rulesets[ref] = stored_rules(values)
        return rules

    def summary(self, key: str) -> MatchSummary | None:
        """The summary of the match with that key, as this batch leaves it."""
        if key in self._new_summaries:
            return self._new_summaries[key]
        if key in self._dropped:
            return None
        if self.summaries is not None and key in self.summaries and ("summary", key) not in self._docs:
            return self.summaries[key]
        data = self.get("summary", key)
        if data is None:
            return None
        summary = load_summary(data)
        if self.summaries is not None and ("summary", key) not in self.changed:
            self.summaries[key] = summary
        return summary

    def put_summary(self, summary: MatchSummary) -> None:
        # The fields as they are (tuples are stored as lists): ``attrs.asdict`` copied each one.
        self.put("summary", summary.key, {name: getattr(summary, name) for name in SUMMARY_FIELDS})
        self._new_summaries[summary.key] = summary

    def drop_summary(self, key: str) -> None:
        """A match that has no summary any more (it cannot be scored): its summary and statistics removed."""
        self.put("summary", key, None)
        self.put("stats", key, None)
        self._new_summaries.pop(key, None)
        self._dropped.add(key)

    def remember(self) -> None:
        """The batch is written: the summaries it computed are the stored ones now."""
        if self.summaries is not None:
            self.summaries.update(self._new_summaries)
            for key in self._dropped:
                self.summaries.pop(key, None)

    def prefetch(self, events: list[Any]) -> None:
        """Read at once the stored documents a batch of events will ask for (``DocumentView.get_docs``):
        the match of each event after a start, and what attaching a match reads."""
        wanted: set[DocKey] = set()
        # Each id's text by ``key_of``: a match's events carry one id object (``select_rows``), its
        # text made once, not once per event.
        key_of = self.key_of
        for event in events:
            if isinstance(event, Match.Event) and (self.reread is not None or not isinstance(event, Match.Started)):
                wanted.add(("match", key_of(event.originator_id)))
            elif isinstance(event, Tournament.Event) and (
                self.reread is not None or not isinstance(event, Tournament.Created)
            ):
                tournament = key_of(event.originator_id)
                wanted.add(("tournament", tournament))
                if isinstance(event, _MEMBERSHIP):
                    wanted.add(("entry", f"{tournament}/{event.match_key}"))
                    wanted.add(("attached", event.match_key))
                    wanted.add(("summary", event.match_key))
                    # What attaching a match asks of its damage (each a read transaction of its own before).
                    wanted.add(("damaged", event.match_key))
                    wanted.add(("unreadable", str(match_id_of(event.match_key))))
        self.prefetch_keys(wanted)

    def prefetch_keys(self, keys: Iterable[DocKey]) -> None:
        """Read at once those of these documents not read yet."""
        wanted = set(keys) - self._docs.keys()
        if wanted:
            for (kind, key), found in self.view.get_docs(sorted(wanted)).items():
                self._docs[(kind, key)] = None if found is None else read_doc(kind, found)

    def get(self, kind: str, key: str) -> dict[str, Any] | None:
        if (kind, key) not in self._docs:
            found = self.view.get_doc(kind, key)
            self._docs[(kind, key)] = None if found is None else read_doc(kind, found)
        return self._docs[(kind, key)]

    def put(self, kind: str, key: str, data: dict[str, Any] | None) -> None:
        self._docs[(kind, key)] = data
        self.changed.add((kind, key))

    def changes(self) -> dict[DocKey, dict[str, Any] | None]:
        """The documents to write, each stamped with its schema."""
        return {key: stamped(key[0], self._docs[key]) for key in self.changed}

    def changes_written(self) -> dict[DocKey, dict[str, Any] | str | None]:
        """``changes``, a document whose data's canonical bytes were written already (a match's rules,
        for their reference: ``written``) as its text (``projections.views.encoded``'s, made from
        them: ``_stamped_text``), not encoded again."""
        changes: dict[DocKey, dict[str, Any] | str | None] = {**self.changes()}
        for key, written in self.written.items():
            stored = changes.get(key)
            if isinstance(stored, dict):
                text = _stamped_text(stored, written)
                if text is not None:
                    changes[key] = text
        return changes


def match_state(
    doc: dict[str, Any], rules: Ruleset, history: list[tuple[int, Any]] | None = None
) -> tuple[Any, list[Any], list[CorrectedStep]]:
    """The table now, the corrected facts and the corrected steps of a match document under its
    rules (``DocCache.rules(doc["rules"])``).

    How the corrections change the history is the domain's alone: the correction log goes
    through ``resolve_corrections`` (corrections of corrections, a void taken back) and
    ``corrected_steps``, as the Match aggregate does.
    """
    if history is None:
        history = [(position, fact_from_data(data)) for position, data in doc["history"]]
    log = [
        (
            position,
            Correction(
                c["target"],
                None if c["replacement"] is None else fact_from_data(c["replacement"]),
                c["by"],
                c["reason"],
                position=position,
            ),
        )
        for position, c in doc["corrections"]
    ]
    corrections = resolve_corrections(log)
    facts = effective_facts(history, corrections)
    steps = corrected_steps(opening_state(rules, doc["opening"]), rules, history, corrections)
    state = steps[-1].after if steps else opening_state(rules, doc["opening"])
    return state, facts, steps


def summary_and_stats(
    doc: dict[str, Any], rules: Ruleset, history: list[tuple[int, Any]] | None = None, scored: Scored | None = None
) -> tuple[MatchSummary, MatchStats]:
    """The summary and the player statistics of a match, from one fold of its corrected history.

    ``history`` (the facts as objects), when the caller has it already, spares decoding the
    facts again from the document: it must be what the document holds. ``scored``, the fold
    itself (table, corrected facts, corrected steps) when the caller's ``Match`` made it already.
    """
    state, facts, steps = scored if scored is not None else match_state(doc, rules, history)
    summary = summarize(doc["key"], doc["players"], rules, state, facts)
    stats = match_stats(
        summary.key,
        summary.players,
        rules,
        steps,
        summary.places,
        summary.final_points,
        summary.final_scores,
        summary.finished,
    )
    return summary, stats


def match_documents(
    events: Sequence[Any],
    head: str,
    scored: Scored,
    fact_data: Sequence[dict[str, Any] | None] | None = None,
    rules: Ruleset | None = None,
    *,
    from_start: bool = False,
) -> dict[DocKey, dict[str, Any] | str | None]:
    """The documents a catch-up writes for a new match when it folds these events, its every event
    from its start (``Match.Started``), into a view that has never seen it: the match, its rules,
    summary and statistics, each stamped with its schema (``DocCache.changes``); the view's own
    marker (``view/format``) left to the writer, which knows the position.

    Folded by the view's own functions (``apply_event``'s steps, ``_started_doc`` and ``_add_entry``,
    for a match from its start; ``apply_event`` itself otherwise; ``flush``) into an empty view in memory,
    with the fold the match's ``Match`` scored already (``scored``: its ``state``,
    ``effective_facts()`` and ``corrected_steps()``, the same ``next_step`` as the view's replay)
    instead of replaying it again, and each event's digest from the chain the events carry (each
    names the digest of the one before it; ``head``, the last one's) instead of hashing it again.
    What a reading worker of an import sends with the match, for the storing process to write
    when the view stood right before the batch (``replay.store.standings_view.keep``).

    ``fact_data``, when the caller made it already (the import, which also stores it): for each
    event, its fact's (or replacement's) plain data as ``domain.codec.fact_to_data`` writes it, or
    None; the fold then does not convert each fact again. Read only, never changed. ``rules``: the
    match's rules as its ``Match`` built them from its start's values (``domain.match.stored_rules``,
    what the fold builds from them), so that they are neither encoded nor looked up again.
    ``from_start``: the events are a new ``Match``'s pending events, its start first (its commands made
    them, its own, in order): a new match by construction, not looked at event by event (``_new_match``).
    """
    cache = DocCache(_no_documents())
    plain: Sequence[dict[str, Any] | None] = [None] * len(events) if fact_data is None else fact_data
    if from_start or _new_match(events):
        # The chain: each event names the digest of the one before it (``prior``), the last one's
        # is ``head``; what ``_chain`` follows, event by event, and finds unbroken by construction.
        _fold_new_match(cache, events, plain, head, rules)
    else:
        digests = [*(str(event.prior) for event in events[1:]), head]
        cache.read = {
            id(event): ReadEvent(event, digest, data)
            for event, digest, data in zip(events, digests, plain, strict=True)
        }
        for event in events:
            apply_event(cache, event)
    for match_id in cache.dirty_matches:
        cache.scored[match_id] = scored
    flush(cache, 0)
    # A document whose data's canonical bytes were written already (its rules, for their reference):
    # its text made from them, as ``projections.views.encoded`` writes it, not encoded again.
    changes = cache.changes_written()
    del changes[("view", "format")]
    # The match's own documents as their text, where how they were made tells that orjson writes them
    # as ``projections.views.encoded`` does (``_known_text``): no scan of their bytes, no walk.
    for key, data in changes.items():
        if isinstance(data, dict):
            text = _known_text(key[0], data, cache.histories.get(key[1]))
            if text is not None:
                changes[key] = text
    return changes


class _Shape:
    """The fields of a kind of document as ``match_documents`` makes it: ``scalars`` (text, whole
    numbers, true or false, None), ``lists`` (lists or tuples of such), ``numbers`` (lists of final
    points: floats), ``counts`` (lists of dicts of such, by text); each group's values taken in C."""

    def __init__(
        self,
        scalars: tuple[str, ...],
        lists: tuple[str, ...],
        numbers: tuple[str, ...] = (),
        counts: tuple[str, ...] = (),
        more: tuple[str, ...] = (),
    ) -> None:
        self.names = frozenset([*scalars, *lists, *numbers, *counts, *more])
        self.scalars, self.lists, self.numbers, self.counts = map(_values_of, (scalars, lists, numbers, counts))


def _values_of(names: tuple[str, ...]) -> Callable[[dict[str, Any]], tuple[Any, ...]]:
    """The values of these fields of a document, as a tuple (``itemgetter`` gives one name's value alone)."""
    if not names:
        return lambda _data: ()
    if len(names) == 1:
        (name,) = names
        return lambda data: (data[name],)
    return itemgetter(*names)


_SHAPES: dict[str, _Shape] = {
    "stats": _Shape(
        scalars=("key", "finished", SCHEMA_KEY),
        lists=("players", "places", "net_scores"),
        numbers=("final_points",),
        counts=("counts", "yaku"),
    ),
    "summary": _Shape(
        scalars=("key", "rules", "finished", "start_score", "hands", "tie_break", "hand", SCHEMA_KEY),
        lists=("players", "final_scores", "places", "penalties"),
        numbers=("final_points", "provisional_points"),
    ),
    # A match's document: its opening and its history of facts are ``_match_exact``'s.
    "match": _Shape(
        scalars=("key", "rules", "head", "last", SCHEMA_KEY),
        lists=("players", "corrections"),
        more=("opening", "history"),
    ),
}
_SEQUENCES = frozenset({list, tuple})
_DICTS = frozenset({dict})
_second = itemgetter(1)
_joined = chain.from_iterable


def _known_text(kind: str, data: dict[str, Any], facts: list[tuple[int, Any]] | None) -> str | None:
    """The text ``projections.views.encoded`` writes of a new match's document (stamped) as
    ``match_documents`` made it, by one call of orjson where the fields of its kind (``_SHAPES``) hold
    only what orjson writes as the standard encoder does: text, whole numbers, true or false, None,
    and floats each asked as ``domain.integrity`` asks (``exact_numbers``); and for the match itself,
    its history's facts each of a class whose data is exact by its field types
    (``domain.codec.exact_data``: ``facts``, the facts the fold added, in order), no correction, and its
    opening checked (``json_exactly``). None otherwise: ``encoded`` writes it, scanning its bytes."""
    shape = _SHAPES.get(kind)
    if shape is None or data.keys() != shape.names:
        return None
    if kind == "match" and not _match_exact(data, facts):
        return None
    lists, numbers, counts = shape.lists(data), shape.numbers(data), shape.counts(data)
    if not _SEQUENCES.issuperset(map(type, (*lists, *numbers, *counts))):
        return None
    if not plain_items(shape.scalars(data)) or not plain_items(_joined(lists)) or not exact_numbers(_joined(numbers)):
        return None
    if counts:
        # Their keys not looked at: orjson refuses a key that is not text (the standard encoder writes it
        # as text), and its refusal sends the document to ``encoded``.
        each = [*_joined(counts)]
        if not _DICTS.issuperset(map(type, each)) or not plain_items(_joined(map(dict.values, each))):
            return None
    try:
        return orjson.dumps(data, option=SORTED).decode("utf-8")
    except (TypeError, orjson.JSONEncodeError):  # a key not text, an integer beyond 64 bits: ``encoded``'s
        return None


def _match_exact(data: dict[str, Any], facts: list[tuple[int, Any]] | None) -> bool:
    """Whether a new match's opening and history are data orjson writes as the standard encoder does:
    no correction (its replacement would be another fact, not in ``facts``), each entry of its history
    a position and the data of one of ``facts`` (the fold added them together), each fact's class exact
    by its field types, and its opening (a small dict) checked."""
    history = data["history"]
    if data["corrections"] or facts is None or len(facts) != len(history):
        return False
    if not all(map(exact_data, set(map(type, map(_second, facts))))):
        return False
    opening = data["opening"]
    return type(opening) is dict and (not opening or json_exactly(opening, kept=False) is not None)


@functools.cache
def _no_documents() -> POPODocumentView:
    """An empty view in memory, made once: what ``match_documents`` folds into (it only reads it, and
    finds nothing; its documents are returned, never written into it). Made for every match, its
    recorder's locks and tables cost as much as the fold of the match's events."""
    return POPODocumentView()


def _stamped_text(doc: dict[str, Any], written: bytes) -> str | None:
    """The text ``projections.views.encoded`` writes for a document as stored (``stamped``: its data
    with its schema), from ``written``, its data's canonical bytes: the same bytes with the schema's
    key and value first, where every key of the data sorts after the schema's (sorted keys: the
    schema's is then the first); None otherwise (data with no key, or a key of the schema's own name:
    the bytes would name it twice). Every key is text: orjson wrote ``written``."""
    schema = doc.get(SCHEMA_KEY)
    if type(schema) is not int or len(doc) < 2 or min(doc) != SCHEMA_KEY or written.startswith(_SCHEMA_FIRST):
        return None
    return f'{{"{SCHEMA_KEY}":{schema},' + written[1:].decode("utf-8")


_SCHEMA_FIRST = f'{{"{SCHEMA_KEY}":'.encode()


# No aggregate's id: what ``DocCache.key_of`` has met last before it met any.
_NO_ID = object()


@attrs.frozen
class ReadEvent:
    """An event as a batch read gave it, with what that read worked out of its data already: its
    digest (``domain.integrity.event_digest``) and, for a recorded fact or a correction's
    replacement, that fact's plain data (``domain.codec.fact_to_data``). The fold takes them
    instead of working them out again from the event's objects."""

    event: Any
    digest: str
    fact_data: dict[str, Any] | None


@attrs.frozen
class UnreadableRow:
    """A stored row of a match that cannot be read as an event (changed behind honba's back): the
    view leaves that match out and names it, instead of failing the whole fold (one damaged match
    never takes the standings down)."""

    originator_id: Any
    originator_version: int
    why: str


def apply_event(cache: DocCache, event: Any) -> None:
    """Fold one match or tournament event (or a match's row that cannot be read) into the view documents."""
    if isinstance(event, UnreadableRow):
        _apply_unreadable(cache, event)
    elif isinstance(event, Match.Event):
        _apply_match_event(cache, event)
    elif isinstance(event, Tournament.Event):
        _apply_tournament_event(cache, event)


def _apply_match_event(cache: DocCache, event: Any) -> None:
    match_id = cache.key_of(event.originator_id)
    found = cache.get("match", match_id) if not isinstance(event, Match.Started) or cache.reread else None
    last = None if found is None else found.get("last")
    version = event.originator_version
    if isinstance(last, int) and version <= last:
        return  # folded already, with the match read whole in order (below)
    in_step = version == 1 if found is None else (not isinstance(last, int) or version == last + 1)
    if not in_step and cache.reread is not None:
        # The log put this event out of its match's order (a row moved to another place in the
        # notification log): the view never trusts that order for what a match holds. The match
        # is read whole, in the order of its own positions, and folded again from its start.
        _refold(cache, match_id, cache.reread(event.originator_id))
        return
    read = cache.read_of(event)
    if isinstance(event, Match.Started):
        doc = _started_doc(cache, event)
        cache.histories[match_id] = []
    else:
        if found is None:
            return  # a match whose start this view never saw (and cannot read): nothing to add to
        doc = found
        _add_entry(doc, cache.histories.get(match_id), event, None if read is None else read.fact_data)
    _chain(doc, event, read)
    cache.put("match", match_id, doc)
    cache.dirty_matches.add(match_id)


def _new_match(events: Sequence[Any]) -> bool:
    """Whether events are a match's from its start: its ``Started`` first, then its own in order."""
    if not events or not isinstance(events[0], Match.Started):
        return False
    stream = events[0].originator_id
    return all(
        isinstance(event, Match.Event)
        and (event.originator_id is stream or event.originator_id == stream)
        and event.originator_version == version
        for version, event in enumerate(events, start=1)
    )


def _fold_new_match(
    cache: DocCache,
    events: Sequence[Any],
    fact_data: Sequence[dict[str, Any] | None],
    head: str,
    rules: Ruleset | None = None,
) -> None:
    """Fold a match from its start (``_new_match``: its ``Started`` first, then its own events in
    order) into a cache that holds nothing of it, its chain unbroken (``head``: its last event's
    digest): what ``_apply_match_event`` makes of these events one by one, each event added to its
    document by the fold's own steps (``_started_doc``, ``_add_entry``), without looking up, for
    every event, the document it already holds. ``fact_data``: each event's fact data made already,
    or None (``_add_entry``); ``rules``: the match's rules built already (``DocCache.known_rules``).
    An import's new match (``match_documents``) and a new match of a catch-up's batch
    (``_fold_new_matches``) are folded here alike."""
    first = events[0]
    match_id = cache.key_of(first.originator_id)
    doc = _started_doc(cache, first)
    if rules is not None:
        cache.known_rules(doc["rules"], rules)
    history: list[tuple[int, Any]] = []
    cache.histories[match_id] = history
    for event, data in zip(events[1:], fact_data[1:], strict=True):
        _add_entry(doc, history, event, data)
    doc["head"] = head
    doc["last"] = events[-1].originator_version
    cache.put("match", match_id, doc)
    cache.dirty_matches.add(match_id)


def _fold_new_matches(cache: DocCache, events: list[Any]) -> list[Any]:
    """Fold the matches a batch holds from their start, each at once (``_fold_new_match``), and give
    the batch's other events, in order, for ``apply_event``: a fold near the read, without the look
    for its match's document, its read and its chain that each event costs ``_apply_match_event``.

    A match is folded so only where the event-by-event fold would make the very same document: its
    events in the batch are its own from its start in order (``_new_match``), none a row that cannot
    be read, the view holds no document of it (a match folded already is folded again from its events
    by ``_apply_match_event``'s own rules), and its chain is unbroken (each event names the digest of
    the one before it: the digest the batch's read worked out, ``ReadEvent``). Any other match, a
    broken chain included, goes event by event as before, and is reported as before. The order of a
    match's events among the tournaments' does not change what either writes: an attachment reads a
    match's summary and damage, which only ``flush`` and an unreadable row write."""
    streams: dict[Any, list[Any]] = {}
    for event in events:
        if isinstance(event, _MATCH_ROWS):
            found = streams.get(event.originator_id)
            if found is None:
                streams[event.originator_id] = [event]
            else:
                found.append(event)
    folded: set[Any] = set()
    for stream, own in streams.items():
        if not isinstance(own[0], Match.Started) or not _new_match(own):
            continue
        if cache.get("match", cache.key_of(stream)) is not None:
            continue
        digests: list[str] = []
        plain: list[dict[str, Any] | None] = []
        for event in own:
            read = cache.read_of(event)
            if digests and str(getattr(event, "prior", "")) != digests[-1]:
                break  # broken: ``_chain`` names where, event by event
            digests.append(event_digest(event) if read is None else read.digest)
            plain.append(None if read is None else read.fact_data)
        else:
            _fold_new_match(cache, own, plain, digests[-1])
            folded.add(stream)
    if not folded:
        return events
    return [event for event in events if not isinstance(event, Match.Event) or event.originator_id not in folded]


# A match's rows as a batch gives them: its events, and those that cannot be read.
_MATCH_ROWS = (Match.Event, UnreadableRow)
# A tournament's events that attach or detach a match.
_MEMBERSHIP = (Tournament.MatchAttached, Tournament.MatchDetached)


def _started_doc(cache: DocCache, event: Any) -> dict[str, Any]:
    """A match's document as its start makes it (its chain not yet followed)."""
    return {
        "key": event.key,
        "players": list(event.players),
        "rules": cache.rules_ref(event.rules),
        "opening": dict(event.opening),
        "history": [],
        "corrections": [],
    }


def _add_entry(
    doc: dict[str, Any], history: list[tuple[int, Any]] | None, event: Any, fact_data: dict[str, Any] | None
) -> None:
    """A match's event after its start added to its document (a recorded fact, a correction; other
    events add nothing), and its fact to the match's ``history`` of facts where the cache keeps
    one. ``fact_data``: the fact's (or replacement's) ``fact_to_data`` made already, or None."""
    if isinstance(event, Match.Recorded):
        data = fact_to_data(event.fact) if fact_data is None else fact_data
        doc["history"].append([event.originator_version, data])
        if history is not None:
            history.append((event.originator_version, event.fact))
    elif isinstance(event, Match.Corrected):
        replacement = None
        if event.replacement is not None:
            replacement = fact_to_data(event.replacement) if fact_data is None else fact_data
        if event.target is None:
            doc["history"].append([event.originator_version, replacement])
            if history is not None:
                history.append((event.originator_version, event.replacement))
        # Every correction is kept at its own position; which ones are in force is the domain's.
        doc["corrections"].append(
            [
                event.originator_version,
                {"target": event.target, "replacement": replacement, "by": event.by, "reason": event.reason},
            ]
        )


def _apply_unreadable(cache: DocCache, row: UnreadableRow) -> None:
    """A match's row that cannot be read: the match is left out of the standings, named with why
    (its start row unreadable: named by its id, ``unreadable/<match id>``, for a tournament that
    attaches it)."""
    match_id = cache.key_of(row.originator_id)
    why = said_data(
        Said("its event {position} cannot be read ({why}): left out", position=row.originator_version, why=row.why)
    )
    found = cache.get("match", match_id)
    if found is None:
        cache.put("unreadable", match_id, {"why": why})
        return
    found.setdefault("unreadable", why)
    found["last"] = row.originator_version
    cache.put("match", match_id, found)
    cache.dirty_matches.add(match_id)


def _chain(doc: dict[str, Any], event: Any, read: ReadEvent | None = None) -> None:
    """Follow the match's hash chain as it is folded: each event must name the digest of the one
    before it. A break (an event changed behind honba's back before the view folded it) is kept
    in the document as ``broken``, for the standings to warn of."""
    prior = str(getattr(event, "prior", ""))
    head = doc.get("head")
    if isinstance(head, str) and prior != head and "broken" not in doc:
        version = event.originator_version
        broken = Said(
            "its chain is broken: event {before} does not match what event {position} recorded of it",
            before=version - 1,
            position=version,
        )
        doc["broken"] = said_data(broken)
    doc["head"] = event_digest(event) if read is None else read.digest
    doc["last"] = event.originator_version


def _refold(cache: DocCache, match_id: str, events: list[Any]) -> None:
    """Fold a match again from its start, from all of its events in the order of their positions."""
    cache.put("match", match_id, None)
    cache.histories.pop(match_id, None)
    reread, cache.reread = cache.reread, None
    try:
        for event in sorted(events, key=lambda e: e.originator_version):
            if isinstance(event, UnreadableRow):
                _apply_unreadable(cache, event)
            else:
                _apply_match_event(cache, event)
    finally:
        cache.reread = reread
    cache.dirty_matches.add(match_id)


def _apply_tournament_event(cache: DocCache, event: Any) -> None:
    tournament_id = str(event.originator_id)
    found = cache.get("tournament", tournament_id) if not isinstance(event, Tournament.Created) else None
    if isinstance(event, Tournament.Created) and cache.reread is not None:
        found = cache.get("tournament", tournament_id)
    last = None if found is None else found.get("last")
    version = event.originator_version
    if isinstance(last, int) and version <= last:
        return  # folded already, with the tournament read whole in order (below)
    in_step = version == 1 if found is None else (not isinstance(last, int) or version == last + 1)
    if not in_step and cache.reread is not None:
        # As for a match: the log put this event out of its tournament's order (its creation moved
        # to a later notification id, say). Membership never follows that order: the tournament's
        # events not folded yet are read in the order of their own positions and folded now.
        reread, cache.reread = cache.reread, None
        try:
            for earlier in sorted(reread(event.originator_id), key=lambda e: e.originator_version):
                if earlier.originator_version > (last if isinstance(last, int) else 0):
                    _apply_tournament_event(cache, earlier)
        finally:
            cache.reread = reread
        return
    if isinstance(event, Tournament.Created):
        doc: dict[str, Any] = {
            "id": tournament_id,
            "name": event.name,
            "players": list(event.players),
            "aliases": {},
            "staged": False,
        }
    else:
        if found is None:
            return
        doc = found
        if isinstance(event, Tournament.PlayerRegistered):
            doc["players"].append(event.player)
        elif isinstance(event, Tournament.AliasDeclared):
            doc["aliases"][event.alias] = event.player
        elif isinstance(event, Tournament.AliasWithdrawn):
            doc["aliases"].pop(event.alias, None)
        elif isinstance(
            event,
            Tournament.FormatDeclared
            | Tournament.PlayerWithdrawn
            | Tournament.SubstituteSeated
            | Tournament.TeamJoined,
        ):
            # Its standings are the staged event's from now on (``replay.service.director.stages.event_report``).
            doc["staged"] = True
        elif isinstance(event, Tournament.MatchAttached):
            entry = f"{event.originator_id}/{event.match_key}"
            if cache.get("entry", entry) is None:  # attached again, to another session: counted already
                count_match(cache, str(event.originator_id), cache.summary(event.match_key), 1)
                marked = (cache.get("damaged", event.match_key) or {}).get("why")
                if marked is None:  # a match whose start row cannot be read: named by its id
                    marked = (cache.get("unreadable", str(match_id_of(event.match_key))) or {}).get("why")
                mark_damaged(cache, str(event.originator_id), event.match_key, marked)
            cache.put("entry", entry, {"session": event.session, "table": event.table})
            _index(cache, event.match_key, doc["name"], add=True)
        elif isinstance(event, Tournament.MatchDetached):
            entry = f"{event.originator_id}/{event.match_key}"
            if cache.get("entry", entry) is not None:
                count_match(cache, str(event.originator_id), cache.summary(event.match_key), -1)
                mark_damaged(cache, str(event.originator_id), event.match_key, None)
            cache.put("entry", entry, None)
            _index(cache, event.match_key, doc["name"], add=False)
    doc["last"] = version
    cache.put("tournament", str(event.originator_id), doc)
    cache.put("tournament-name", doc["name"], {"id": str(event.originator_id)})
    cache.dirty_tournaments.add(str(event.originator_id))


def _index(cache: DocCache, match_key: str, tournament: str, *, add: bool) -> None:
    names = set((cache.get("attached", match_key) or {"tournaments": []})["tournaments"])
    (names.add if add else names.discard)(tournament)
    cache.put("attached", match_key, {"tournaments": sorted(names)})


TOTAL_FIELDS = ("points", "net_score", "matches", "place_sum", "penalties")


def count_match(cache: DocCache, tournament_id: str, summary: MatchSummary | None, sign: int) -> None:
    """Add (sign 1) or take back (sign -1) a match's part in a tournament's running totals.

    The totals (``totals/<tournament id>``) are kept by the name each player sat under, in
    whole numbers (points in tenths), so that a match counted, changed or detached costs the
    work of that match only, never a pass over the tournament; aliases are applied when the
    standings are ranked. Only finished matches count.
    """
    if summary is None:
        return
    doc = cache.get("totals", tournament_id) or {"names": {}, "chains": {}}
    if not summary.finished:
        # Counted apart: how many of its matches are still in progress (``honba standings`` says so).
        doc["in_progress"] = doc.get("in_progress", 0) + sign
        if not doc["in_progress"]:
            del doc["in_progress"]
        cache.put("totals", tournament_id, doc)
        return
    if not summary.final_points:
        return
    for seat, name in enumerate(summary.players):
        totals = doc["names"].setdefault(name, {**dict.fromkeys(TOTAL_FIELDS, 0), "places": [0, 0, 0, 0]})
        totals["points"] += sign * round(summary.final_points[seat] * 10)
        totals["net_score"] += sign * (summary.final_scores[seat] - summary.start_score)
        totals["matches"] += sign
        totals["place_sum"] += sign * summary.places[seat]
        totals["places"][summary.places[seat] - 1] += sign
        totals["penalties"] += sign * summary.penalties[seat]
        if totals["matches"] == 0:
            del doc["names"][name]
    chains = doc["chains"]
    chains[summary.tie_break] = chains.get(summary.tie_break, 0) + sign
    if not chains[summary.tie_break]:
        del chains[summary.tie_break]
    cache.put("totals", tournament_id, doc)


def mark_damaged(cache: DocCache, tournament_id: str, match_key: str, damage: object) -> None:
    """Note in a tournament's totals that one of its matches is damaged (why, as ``said_data``), or
    no longer (None)."""
    doc = cache.get("totals", tournament_id) or {"names": {}, "chains": {}}
    if (doc.get("damaged") or {}).get(match_key) == damage:
        return
    damaged = doc.setdefault("damaged", {})
    if damage is None:
        del damaged[match_key]
    else:
        damaged[match_key] = damage
    if not damaged:
        del doc["damaged"]
    cache.put("totals", tournament_id, doc)


def damaged_of(standings: dict[str, Any]) -> dict[str, Said | str]:
    """Why each damaged match of a tournament's standings document (``standings/<name>``) is
    damaged, as words again (``said_from_data``), by match key."""
    found: dict[str, Said | str] = {}
    for key, why in (standings.get("damaged") or {}).items():
        words = said_from_data(why)
        found[str(key)] = words if isinstance(words, Said) else str(words)
    return found


def ranked_totals(totals: dict[str, Any] | None, tournament: dict[str, Any]) -> list[StandingRow]:
    """The standings from a tournament's running totals, aliases resolved (``projections.standings.rank``)."""
    aliases: dict[str, str] = tournament["aliases"]
    merged: dict[str, dict[str, Any]] = {}
    for player in tournament["players"]:
        if player not in aliases:
            merged[player] = {**dict.fromkeys(TOTAL_FIELDS, 0), "places": [0, 0, 0, 0]}
    names = (totals or {}).get("names", {})
    for name, part in names.items():
        into = merged.setdefault(aliases.get(name, name), {**dict.fromkeys(TOTAL_FIELDS, 0), "places": [0, 0, 0, 0]})
        for field in TOTAL_FIELDS:
            into[field] += part[field]
        into["places"] = [a + b for a, b in zip(into["places"], part["places"], strict=True)]
    by_player = {
        player: Totals(
            points=round(t["points"] / 10, 1),
            net_score=t["net_score"],
            matches=t["matches"],
            place_sum=t["place_sum"],
            place_counts=tuple(t["places"]),
            penalties=t["penalties"],
        )
        for player, t in merged.items()
    }
    chains = (totals or {}).get("chains", {})
    return rank(by_player, "net_score" if set(chains) == {"net_score"} else "placement")


class _LeftOut(Exception):
    """A match the view leaves out of the standings (why)."""


def flush(cache: DocCache, position: int) -> None:
    """Recompute the summaries and standings the folded events made stale: a changed match is
    taken out of the totals of its tournaments as it was and counted again as it is; and mark
    the view's layout and the ``position`` its documents are written at (``view/format``: a
    tracked position changed behind honba's back no longer agrees with it)."""
    docs = {match_id: cache.get("match", match_id) for match_id in sorted(cache.dirty_matches)}
    # What each match's summary meets in the view, read at once (one read transaction on SQLite).
    cache.prefetch_keys(
        (kind, doc["key"]) for doc in docs.values() if doc is not None for kind in ("summary", "attached", "damaged")
    )
    for match_id, doc in docs.items():
        if doc is None:
            continue
        key = doc["key"]
        before = cache.summary(key)
        summary: MatchSummary | None
        # Why it is damaged, as words in data (``said_data``), or None.
        damage: object
        try:
            if doc.get("unreadable"):
                raise _LeftOut(doc["unreadable"])
            summary, stats = summary_and_stats(
                doc, cache.rules(doc["rules"]), cache.histories.get(match_id), cache.scored.get(match_id)
            )
        except _LeftOut as exc:  # one of its rows cannot be read
            summary, damage = None, exc.args[0]
            cache.drop_summary(key)
        # (A name of its own: compiled by mypyc, one name is one variable of the first clause's type.)
        except HonbaError as unscorable:  # a stored fact the table cannot hold: changed behind honba's back
            summary, damage = None, said_data(Said("it cannot be scored ({why}): left out", why=unscorable.said))
            cache.drop_summary(key)
        else:
            damage = doc.get("broken")
            cache.put_summary(summary)
            cache.put("stats", key, stats.to_data())
        if damage != (cache.get("damaged", key) or {}).get("why"):
            cache.put("damaged", key, None if damage is None else {"why": damage})
        for name in (cache.get("attached", key) or {"tournaments": []})["tournaments"]:
            ref = cache.get("tournament-name", name)
            if ref is not None:
                count_match(cache, ref["id"], before, -1)
                count_match(cache, ref["id"], summary, 1)
                mark_damaged(cache, ref["id"], key, damage)
                cache.dirty_tournaments.add(ref["id"])
    for tournament_id in sorted(cache.dirty_tournaments):
        doc = cache.get("tournament", tournament_id)
        if doc is not None:
            totals = cache.get("totals", tournament_id)
            rows = ranked_totals(totals, doc)
            damaged = dict((totals or {}).get("damaged", {}))
            cache.put("standings", doc["name"], {"rows": [attrs.asdict(r) for r in rows], "damaged": damaged})
    cache.put("view", "format", {"version": FORMAT, "position": position})
    cache.dirty_matches.clear()
    cache.dirty_tournaments.clear()


def tournament_entries(view: DocumentView, tournament_id: str) -> dict[str, tuple[int, int | None]]:
    """The matches that count for a tournament (``entry/<tournament id>/<match key>``): session and table.

    One document a match, so that attaching or detaching a match writes that match's entry
    only, never a list as long as the tournament.
    """
    prefix = f"{tournament_id}/"
    return {
        key[len(prefix) :]: (int(data["session"]), data["table"])
        for key, data in ((k, read_doc("entry", d)) for k, d in view.docs("entry", prefix))
    }


def read_docs(view: DocumentView, kind: str, prefix: str = "") -> list[tuple[str, dict[str, Any]]]:
    """Every document of a kind (``DocumentView.docs``), each in the current schema (``read_doc``)."""
    return [(key, read_doc(kind, data)) for key, data in view.docs(kind, prefix)]


def load_summary(data: dict[str, Any]) -> MatchSummary:
    """A summary from its stored document."""
    values: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items()}
    return MatchSummary(**values)


def tournament_standings(
    cache: DocCache,
    doc: dict[str, Any],
    *,
    after_session: int | None = None,
    entries: dict[str, tuple[int, int | None]] | None = None,
) -> list[StandingRow]:
    """The standings of a tournament document, from the stored summaries of its matches."""
    aliases: dict[str, str] = doc["aliases"]
    summaries = []
    if entries is None:
        entries = tournament_entries(cache.view, doc["id"])
    for key, (session, _table) in sorted(entries.items()):
        if after_session is not None and session > after_session:
            continue
        summary = cache.summary(key)
        if summary is not None:
            summaries.append(summary)
    players = [p for p in doc["players"] if p not in aliases]
    return standings(summaries, lambda name: aliases.get(name, name), players)


class StandingsProjection(Projection[DocumentView]):
    """Keeps the standings view up to date, one event at a time (live), or many (catch-up).

    Every write is a compare-and-set on the view's position (``DocumentView.put_docs`` with
    ``expected``), so catch-ups and followers started and stopped at any time share one view.
    """

    name = NAME
    topics = ()

    def process_event(self, domain_event: Any, tracking: Tracking) -> None:
        """Fold one event the live runner hands over, unless a catch-up has already counted it.

        The runner goes through the log in order from where the view stood when it started,
        so the view stands at this event's predecessor or beyond it: beyond, another writer
        counted the event; else the event is folded and written only if nobody wrote between.
        """
        while True:
            position = self.view.max_tracking_id(tracking.application_name) or 0
            if position >= tracking.notification_id:
                return
            cache = DocCache(self.view)
            apply_event(cache, domain_event)
            flush(cache, tracking.notification_id)
            try:
                self.view.put_docs(cache.changes(), tracking, expected=position)
            except ViewMoved:
                continue  # another writer came first: look again where the view stands
            return

    # Match summaries kept between the batches of one catch-up (``DocCache.summaries``); None
    # for a projection that others may write beside (the live runner).
    summaries: dict[str, MatchSummary] | None = None
    # How a catch-up reads one match's every event in the order of its positions (``DocCache.reread``).
    reread: Callable[[Any], list[Any]] | None = None

    def process_batch(
        self, events: Iterable[Any], tracking: Tracking, *, expected: int | None = None, read: Iterable[ReadEvent] = ()
    ) -> None:
        """Fold many events and write them with the position of the last, in one transaction
        (only if the view still stands at ``expected``, when given: else ``ViewMoved``). ``read``:
        what the batch's read worked out of some of these events already (``ReadEvent``)."""
        cache = DocCache(self.view, self.summaries)
        cache.reread = self.reread
        cache.read = {id(one.event): one for one in read}
        events = list(events)
        cache.prefetch(events)
        for event in _fold_new_matches(cache, events):
            apply_event(cache, event)
        flush(cache, tracking.notification_id)
        self.view.put_docs(cache.changes_written(), tracking, expected=expected)
        cache.remember()
