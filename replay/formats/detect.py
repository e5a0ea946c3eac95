"""Which format a file is in, judged from its content, and reading it into logged games."""

from __future__ import annotations

import importlib
import os
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs

from replay.formats.deal import GameDeal
from replay.formats.logmodel import LogError, LoggedGame
from replay.formats.source import check_text, first_line_object, head, read_source, utf8_text


# The registry of log formats: each a module with its own ``detect(data) -> bool`` and its reader
# (``data, *, file`` -> its games), registered here by name, in the order detection asks them (the
# first whose detect says yes reads the file). A new format is one module and one line here. The
# modules are imported on first use, detection included (the mjai reader loads the ``mahjong``
# library): a Tenhou XML file never loads the others.
@attrs.frozen
class LogFormat:
    """A registered log format: its name (``--format``), its module, its detect and read functions."""

    name: str
    module: str
    detect: str = "detect"
    read: str = "read"
    # The module whose ``deals(data, *, file)`` reads what the log shows of each hand's deal and
    # its wall commitment (``honba verify --deal``), for the formats that carry one.
    deal: str | None = None
    # A binary format (protobuf): its content is not refused as text that is not UTF-8.
    binary: bool = False
    # The module whose ``read_with_tiles(data, *, file)`` reads the games with each hand's tiles, for a
    # format whose reader leaves them out (asked by an import, which keeps them; verify does not need them).
    tiles: str | None = None


REGISTRY: tuple[LogFormat, ...] = (
    LogFormat(
        "tenhou-xml",
        "replay.formats.tenhou_xml",
        read="read_hands",
        deal="replay.formats.tenhou_deal",
        tiles="replay.formats.tenhou_xml_tiles",
    ),
    # Before tenhou.net/6 JSON, whose detection takes any JSON naming a "log".
    LogFormat("riichi-city", "replay.formats.riichi_city", deal="replay.formats.riichi_city"),
    LogFormat("tenhou-json", "replay.formats.tenhou_json"),
    LogFormat("mjai", "replay.formats.mjai", read="read_hands", tiles="replay.formats.mjai"),
    LogFormat("mahjongsoul", "replay.formats.mahjongsoul", binary=True, deal="replay.formats.mahjongsoul"),
)
READERS: dict[str, LogFormat] = {entry.name: entry for entry in REGISTRY}
LOG_FORMATS = tuple(READERS)
FORMATS = ("auto", *LOG_FORMATS)
# What a directory is searched for; a file named explicitly is always tried.
LOG_SUFFIXES = frozenset({".xml", ".mjlog", ".json", ".jsonl", ".mjson", ".gz", ".xml_", ".pb", ".bin"})


# How honba's record files start (``honba export`` writes ``type`` first).
_RECORD_START = re.compile(rb'\{\s*"type"\s*:\s*"start"\s*[,}]')


def is_record(data: bytes) -> bool:
    """Whether the content is honba's own record file (JSON Lines starting with the match's start),
    which is no log: ``honba import`` loads it, the log readers refuse it."""
    start = head(data)
    if not start.startswith(b"{"):
        return False
    if len(start.split(b"\n", 1)[0]) == len(start) and _RECORD_START.match(start):
        # A first line longer than the head looked at (a record's start line with long names,
        # a long source or many rule overrides, as honba's own export writes it): a record.
        return True
    first = first_line_object(data)
    # honba's match start (mjai's events are start_game, start_kyoku): the record reader says
    # what is wrong with it, even without its key.
    return isinstance(first, dict) and first.get("type") == "start"


def detect_format(data: bytes) -> str | None:
    """``record`` (honba's own), else the first registered log format whose detect says yes, or None."""
    if is_record(data):
        return "record"
    for entry in REGISTRY:
        if _function(entry, entry.detect)(data):
            return entry.name
    return None


def reader(name: str) -> Callable[..., list[LoggedGame]]:
    """The function that reads a log of the named format (``data, *, file`` -> its games)."""
    entry = READERS[name]
    read: Callable[..., list[LoggedGame]] = _function(entry, entry.read)
    return read


def _function(entry: LogFormat, name: str) -> Any:
    # A module already loaded is taken as it is (detection asks a module per entry for every file):
    # the import machinery runs only the first time; the function is looked up on it each time.
    module = sys.modules.get(entry.module)
    if module is None:
        module = importlib.import_module(entry.module)
    return getattr(module, name)


def read_log(path: Path, fmt: str = "auto") -> list[LoggedGame]:
    """Every game in a log file, in the given format or the one its content shows."""
    return read_games(read_source(path), file=str(path), fmt=fmt)


def read_games(data: bytes, *, file: str, fmt: str = "auto", tiles: bool = False) -> list[LoggedGame]:
    """Every game in a log's content (read once by ``read_source``), in the given format or the one it
    shows; with ``tiles``, each hand with its tiles where the format has them (an import keeps them)."""
    kind, text = _kind(data, file, fmt)
    entry = READERS[kind]
    data = data if entry.binary else text
    if tiles and entry.tiles is not None:
        with_tiles: Callable[..., list[LoggedGame]] = importlib.import_module(entry.tiles).read_with_tiles
        return with_tiles(data, file=file)
    return reader(kind)(data, file=file)


def _kind(data: bytes, file: str, fmt: str) -> tuple[str, bytes]:
    """The log format of a content (given, or judged from it), after refusing what no reader takes:
    text in a wide encoding (a binary format's content excepted), honba's own record files, the unknown;
    with the content as UTF-8 text (``utf8_text``, made once here), which its reader is given."""
    text = utf8_text(data)
    kind = detect_format(text) if fmt == "auto" else fmt
    if kind not in READERS or not READERS[kind].binary:
        check_text(text, file=file)
    if kind == "record":
        raise LogError(file, "a honba record file, not a game log (load it with honba import)")
    if kind is None or kind not in READERS:
        raise LogError(
            file,
            "not a recognised log format (Tenhou mjlog XML, tenhou.net/6 JSON, mjai, "
            "a Riichi City record or a Mahjong Soul record)",
        )
    return kind, text


def read_deals(data: bytes, *, file: str, fmt: str = "auto") -> list[GameDeal]:
    """What a log shows of each game's deals and their commitment (``honba verify --deal``); a
    format that carries no deal gives its games with no commitment and no hands."""
    kind, text = _kind(data, file, fmt)
    data = data if READERS[kind].binary else text
    entry = READERS[kind]
    if entry.deal is None:
        return [GameDeal(file, game.game_id, kind, len(game.players), ()) for game in reader(kind)(data, file=file)]
    deals: Callable[..., list[GameDeal]] = importlib.import_module(entry.deal).deals
    return deals(data, file=file)


def expand_paths(paths: list[Path]) -> list[Path]:
    """Files named, and the log files found below directories named, in a stable order."""
    return list(iter_paths(paths))


def iter_paths(paths: list[Path]) -> Iterator[Path]:
    """``expand_paths`` one file at a time, holding no list of them: an archive of any size streams.

    Below a directory, its entries in name order, each subdirectory where its name falls
    (symbolic links to directories are not followed).
    """
    for path in paths:
        if _is_dir(path):
            yield from _walk(path)
        else:
            yield path


def _is_dir(path: Path) -> bool:
    """Whether the path is a directory; False when it cannot be looked at (a name longer than the
    system takes): reading it as a file then says why, in that file's one line."""
    try:
        return path.is_dir()
    except OSError:
        return False


def count_paths(paths: list[Path]) -> int:
    """How many files ``iter_paths`` gives."""
    return sum(1 for _ in iter_paths(paths))


def _walk(directory: Path) -> Iterator[Path]:
    try:
        with os.scandir(directory) as scan:
            entries = sorted((entry.name, entry.is_dir(follow_symlinks=False)) for entry in scan)
    except OSError:
        return
    for name, is_dir in entries:
        path = directory / name
        if is_dir:
            yield from _walk(path)
        elif _is_log(path):
            yield path


# Tools that fetch Mahjong Soul records save them as ``.log`` (the response's bytes): a ``.log`` file
# below a directory is taken when its start shows a record, so that other logs (text) are not.
SNIFFED_SUFFIX = ".log"
_RECORD_NAME = b".lq.GameDetailRecords"


def _is_log(path: Path) -> bool:
    """Whether a file below a directory is taken as a log: by its name, or for ``.log`` its start."""
    if path.suffix in LOG_SUFFIXES:
        return path.is_file()
    return path.suffix == SNIFFED_SUFFIX and path.is_file() and _record_inside(path)


def _record_inside(path: Path) -> bool:
    try:
        with path.open("rb") as file:
            start = file.read(4096)
    except OSError:
        return False
    return _RECORD_NAME in start
