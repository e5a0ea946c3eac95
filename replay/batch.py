"""Many files at once: verify or import every game of every log, one bad file never stopping the rest."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from domain.errors import HonbaError
from replay.app import HonbaApp
from replay.formats.detect import detect_format, expand_paths, read_log, unpack
from replay.formats.logmodel import LogError
from replay.formats.record import build_match, parse_record
from replay.importing import match_from_log
from replay.verify import GameReport, verify_game

Tick = Callable[[str], None]


@attrs.frozen
class Unreadable:
    """A file (or one game of it) that could not be read, and why.

    ``reason`` leaves out the file name that ``file`` gives; ``message`` is the whole
    sentence as the error said it, file and position included.
    """

    file: str
    reason: str
    message: str = ""


@attrs.frozen
class VerifyRun:
    """Everything ``honba verify`` found."""

    files: int
    reports: tuple[GameReport, ...]
    unreadable: tuple[Unreadable, ...]

    @property
    def hands(self) -> int:
        return sum(r.hands for r in self.reports)

    @property
    def hands_agreeing(self) -> int:
        return sum(r.hands_agreeing for r in self.reports)

    def as_dict(self) -> dict[str, Any]:
        """The JSON object ``honba verify --json`` prints."""
        return {
            "files": self.files,
            "games": len(self.reports),
            "hands": self.hands,
            "hands_agreeing": self.hands_agreeing,
            "disagreements": [d.as_dict() for r in self.reports for d in r.disagreements],
            "unsupported": [
                {"file": r.file, "game": r.game, "reason": r.unsupported} for r in self.reports if r.unsupported
            ],
            "unreadable": [{"file": u.file, "reason": u.reason} for u in self.unreadable],
        }


def verify_paths(paths: list[Path], fmt: str = "auto", tick: Tick | None = None) -> VerifyRun:
    """Verify every game of every log file under the paths."""
    files = expand_paths(paths)
    reports: list[GameReport] = []
    unreadable: list[Unreadable] = []
    for path in files:
        try:
            games = read_log(path, fmt)
        except HonbaError as exc:
            unreadable.append(Unreadable(str(path), _reason(exc, path), _message(exc, path)))
        else:
            reports.extend(verify_game(game) for game in games)
        if tick is not None:
            tick(str(path))
    return VerifyRun(len(files), tuple(reports), tuple(unreadable))


@attrs.frozen
class ImportRun:
    """What ``honba import`` did: games stored, already present, unsupported, unreadable.

    ``games`` holds every game stored or already present, with its players in seat
    order, in the order read (what ``--tournament`` attaches).
    """

    stored: tuple[str, ...] = ()
    present: tuple[str, ...] = ()
    unsupported: tuple[Unreadable, ...] = ()
    unreadable: tuple[Unreadable, ...] = ()
    games: tuple[tuple[str, tuple[str, ...]], ...] = ()


def import_paths(app: HonbaApp, paths: list[Path], fmt: str = "auto", tick: Tick | None = None) -> ImportRun:
    """Store every game of every file (record files or logs), each game whole or not at all."""
    stored: list[str] = []
    present: list[str] = []
    unsupported: list[Unreadable] = []
    unreadable: list[Unreadable] = []
    games: dict[str, tuple[str, ...]] = {}
    for path in expand_paths(paths) if fmt != "record" else paths:
        try:
            for match in _matches_in(path, fmt, unsupported):
                (stored if app.store_whole(match) else present).append(match.key)
                games.setdefault(match.key, tuple(match.players))
        except HonbaError as exc:
            unreadable.append(Unreadable(str(path), _reason(exc, path), _message(exc, path)))
        if tick is not None:
            tick(str(path))
    return ImportRun(tuple(stored), tuple(present), tuple(unsupported), tuple(unreadable), tuple(games.items()))


def _matches_in(path: Path, fmt: str, unsupported: list[Unreadable]) -> list[Any]:
    """All matches of a file, built in memory first so that a bad file stores nothing."""
    name = str(path)
    try:
        data = unpack(path.read_bytes(), file=name)
    except OSError as exc:
        raise LogError(name, f"cannot read: {exc.strerror or exc}") from None
    if fmt == "record" or (fmt == "auto" and detect_format(data) == "record"):
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise LogError(name, f"not UTF-8 text (byte {exc.start})") from None
        return [build_match(parse_record(text, name=name), name=name)]
    matches = []
    for game in read_log(path, fmt):
        if game.unsupported:
            reason = f"{game.game_id}: {game.unsupported}"
            unsupported.append(Unreadable(name, reason, f"{name}: unsupported: {reason}"))
            continue
        try:
            matches.append(match_from_log(game))
        except LogError:
            raise
        except HonbaError as exc:
            raise LogError(name, f"game {game.game_id}: {exc}") from None
    seen: set[str] = set()
    for match in matches:
        if match.key in seen:
            raise LogError(name, f"two games with the same id {match.key!r}: none of the file is stored")
        seen.add(match.key)
    return matches


def _message(exc: HonbaError, path: Path) -> str:
    """The error message on one line, naming the file when the error itself does not (a store conflict)."""
    text = _one_line(str(exc))
    return text if text.startswith(str(path)) else f"{path}: {text}"


def _one_line(text: str) -> str:
    # A game id or name read from a file may hold a line break: the report keeps one line per file.
    return text.replace("\r", "\\r").replace("\n", "\\n")


def _reason(exc: HonbaError, path: Path) -> str:
    """The error message without the file name the report already shows."""
    text = _one_line(str(exc))
    for prefix in (f"{path}: ", f"{path}, ", f"{path}:"):
        if text.startswith(prefix):
            return text[len(prefix) :]
    return text
