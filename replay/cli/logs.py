"""``honba import`` and ``honba verify``: many files at once, with progress and a summary."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from domain.bounds import SESSION, clipped
from replay.cli.layout import Column, Grid
from replay.cli.params import number_option
from replay.cli.render import json_text
from replay.cli.shell import app, err, fail, guarded, interrupted, out, progress_bar, shell
from replay.service.common.rules import resolve_rules
from replay.service.common.shapes import counted
from replay.service.imports.batch import (
    BATCH,
    LISTED,
    VerifyRun,
    import_paths,
    jobs_default,
    reading_pool,
    verify_paths,
)
from replay.service.imports.deal import deal_paths
from replay.service.imports.imports import BATCH as BATCH_SIZE
from replay.service.imports.imports import (
    JOBS,
    count_import_files,
    count_paths,
    import_options_refusal,
    parse_share,
    verify_options_refusal,
)
from replay.service.tournaments.tournaments import attach_all

FormatOption = Annotated[
    str,
    typer.Option(
        "--format", help="auto (judged from the content), tenhou-xml, riichi-city, tenhou-json, mjai or record."
    ),
]


def named_paths(words: list[str]) -> list[Path]:
    """The paths of the command line. Read as text, since a path type reads an empty word as the
    current directory: ``honba import ""`` (a variable left unset) would import whatever is there."""
    if "" in words:
        raise fail("PATHS: an empty path names no file or directory")
    return [Path(word) for word in words]


@app.command("import")
def import_(
    ctx: typer.Context,
    words: Annotated[
        list[str], typer.Argument(metavar="PATHS", help="Record files, game logs, or directories of them.")
    ],
    fmt: FormatOption = "auto",
    tournament: Annotated[
        str | None,
        typer.Option(
            "--tournament",
            help="Attach every game stored (or already present) to this tournament, created when new; "
            "players are matched by name (declare other log names with honba tournament alias).",
        ),
    ] = None,
    session: Annotated[
        int, number_option("--session", bound=SESSION, help="The session (round) the games count for.")
    ] = 1,
    batch: Annotated[
        int,
        number_option(
            "--batch", bound=BATCH_SIZE, help="Matches stored to a transaction (each match is whole either way)."
        ),
    ] = BATCH,
    jobs: Annotated[
        int | None,
        number_option(
            "--jobs", "-j", bound=JOBS, help="Processes reading files at once (default: one per core; 1: no workers)."
        ),
    ] = None,
    key_prefix: Annotated[
        str,
        typer.Option(
            "--key-prefix",
            help="Put this before the key of every game read from a log (keeps apart distinct games "
            "whose files share a name, e.g. one prefix per source).",
        ),
    ] = "",
    rules: Annotated[
        str | None,
        typer.Option(
            "--rules",
            help="A preset or rule file for games whose log does not state its rules "
            "(Mahjong Soul friendly and tournament rooms).",
        ),
    ] = None,
    share: Annotated[
        str | None,
        typer.Option(
            "--share",
            metavar="K/N",
            help="Import share K of N of the files (split by file name: N machines, one share each, "
            "import every file once between them; run again, a share stores only what it lacks).",
        ),
    ] = None,
) -> None:
    """Store matches from record files and game logs; a match already stored is left as it is.

    Files are read in parallel and stored a hundred matches to a transaction, each match
    whole or not at all: an import that is interrupted (Ctrl-C, killed) is completed by
    running it again. With --tournament, the games count for that tournament. A log name
    that is another player's: ``honba tournament alias NAME LOG_NAME PLAYER`` (``unalias``
    withdraws it); a game attached by mistake: ``honba tournament detach NAME MATCH --reason ...``.
    """
    paths = named_paths(words)
    refusal = import_options_refusal(fmt, tournament, session, batch, jobs, key_prefix, share)
    if refusal is not None:
        raise fail(refusal)
    given = guarded(lambda: resolve_rules(rules)) if rules is not None else None
    part = parse_share(share) if share is not None else None
    total = count_import_files(paths, fmt, part)
    # The reading workers start at the first file that needs reading: none when the store
    # recognises every file by its digest (an archive imported again).
    with reading_pool(jobs or jobs_default(), total, on_demand=True) as pool:
        application = guarded(lambda: shell(ctx).app)
        with progress_bar(total, "importing") as progress:
            task = progress.add_task("import", total=total, file="")
            try:
                run = guarded(
                    lambda: import_paths(
                        application,
                        paths,
                        fmt,
                        lambda f: progress.update(task, advance=1, file=f),
                        pool=pool,
                        batch=batch,
                        keep_games=tournament is not None,
                        key_prefix=key_prefix,
                        rules=given,
                        share=part,
                    )
                )
            except (KeyboardInterrupt, Exception) as exc:
                if not interrupted(exc):
                    raise
                progress.stop()
                raise fail(
                    "interrupted: every match stored so far is whole; run the same command again to store the rest",
                    130,
                ) from None
    if run.stored + run.present <= LISTED:
        for key, stored in run.listed:
            if stored:
                out.print(f"match {key!r} stored", markup=False, highlight=False)
        for key, stored in run.listed:
            if not stored:
                out.print(f"match {key!r} already stored, nothing new", markup=False, highlight=False)
    for file, key, stored_as in run.duplicates:
        out.print(
            f"match {key!r} ({file}) is the game already stored as {stored_as!r}: stored once",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )
    for line in run.warnings:
        # What honba verify would flag: the game is stored, and the difference is shown (stderr
        # keeps one line per file that could not be stored).
        out.print(f"warning: {line}", markup=False, highlight=False, soft_wrap=True)
    for item in (*run.unsupported, *run.unreadable, *run.conflicts):
        err.print(f"honba: {clipped(item.message)}", markup=False, highlight=False)
    if part is not None:
        out.print(f"share {part}: {counted(run.files, 'file')}", markup=False, highlight=False)
    out.print(
        f"{run.stored} stored, {run.present} already present, "
        f"{len(run.unsupported)} unsupported, {len(run.unreadable)} unreadable, "
        f"{counted(len(run.conflicts), 'conflict')}",
        markup=False,
        highlight=False,
    )
    if tournament is not None and run.games:
        left_out = guarded(lambda: attach_all(application, tournament, run.games, session))
        counting = len(run.games) - len(left_out)
        out.print(
            f"{counted(counting, 'match')} {'counts' if counting == 1 else 'count'} for tournament {tournament!r} "
            f"in session {session}",
            markup=False,
            highlight=False,
        )
        for key in left_out:
            out.print(
                f"match {key!r} was detached from {tournament!r}: left out (honba tournament attach counts it again)",
                markup=False,
                highlight=False,
            )
    if run.unreadable or run.conflicts:
        raise typer.Exit(2)


@app.command()
def verify(
    words: Annotated[list[str], typer.Argument(metavar="PATHS", help="Game logs, or directories of them.")],
    fmt: FormatOption = "auto",
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object for tools.")] = False,
    rules: Annotated[
        str | None,
        typer.Option(
            "--rules",
            help="A preset or rule file for games whose log does not state its rules "
            "(Mahjong Soul friendly and tournament rooms); without it their final points are not judged.",
        ),
    ] = None,
    jobs: Annotated[
        int | None,
        number_option(
            "--jobs", "-j", bound=JOBS, help="Processes verifying files at once (default: one per core; 1: no workers)."
        ),
    ] = None,
    deal: Annotated[
        bool,
        typer.Option(
            "--deal",
            help="Check the deals instead: each hand's wall against the log's commitment (Tenhou's "
            "shuffle seed, Riichi City's SHA-256), and the hands dealt, draws and indicators against that wall.",
        ),
    ] = False,
) -> None:
    """Replay logs in memory and compare every hand with what the log recorded.

    Exit 0 when everything agrees, 1 when anything disagrees, 2 when an input could not be read.
    With --deal: 0 when every hand matches its committed wall, 1 when a hand does not or a
    game carries no commitment, 2 when an input could not be read.
    """
    paths = named_paths(words)
    refusal = verify_options_refusal(fmt, jobs, deal=deal, rules=rules is not None)
    if refusal is not None:
        raise fail(refusal)
    if deal:
        verify_deals(paths, fmt, as_json, jobs or jobs_default())
        return
    given = guarded(lambda: resolve_rules(rules)) if rules is not None else None
    total = count_paths(paths)
    # The workers start before the progress bar's thread, as import's do.
    with reading_pool(jobs or jobs_default(), total) as pool, progress_bar(total, "verifying") as progress:
        task = progress.add_task("verify", total=total, file="")
        run = verify_paths(paths, fmt, lambda f: progress.update(task, advance=1, file=f), given, pool=pool)
    if as_json:
        print(json_text(run.as_dict()))
    else:
        print_verify_run(out, run)
    for item in run.unreadable:
        # Each file that could not be read, on stderr in one line, as import reports it.
        err.print(f"honba: {clipped(item.message)}", markup=False, highlight=False)
    if run.exit_code:
        raise typer.Exit(run.exit_code)


def verify_deals(paths: list[Path], fmt: str, as_json: bool, jobs: int) -> None:
    """``honba verify --deal``: the deal check of every game, its summary and every hand that does not match;
    the files checked by ``jobs`` processes, as verify's are."""
    total = count_paths(paths)
    # The workers start before the progress bar's thread, as verify's do.
    with reading_pool(jobs, total) as pool, progress_bar(total, "checking deals") as progress:
        task = progress.add_task("deal", total=total, file="")
        run = deal_paths(paths, fmt, lambda f: progress.update(task, advance=1, file=f), pool=pool)
    data = run.as_dict()
    if as_json:
        print(json_text(data))
    else:
        columns = ("files", "games", "hands", "hands matching", "mismatches", "unchecked", "unreadable")
        summary = Grid("Deal check", [Column(column, numeric=True) for column in columns], split=True)
        summary.add_row(
            *(str(data[key]) for key in ("files", "games", "hands", "hands_matching")),
            *(str(len(data[key])) for key in ("mismatches", "unchecked", "unreadable")),
        )
        out.print(summary)
        if data["mismatches"]:
            table = Grid(
                "Hands that do not match their wall",
                [Column("file", key=True), Column("game", key=True), Column("hand", key=True)]
                + [Column(name) for name in ("field", "log", "wall")],
            )
            for m in data["mismatches"]:
                table.add_row(m["file"], m["game"], m["hand"], m["field"], str(m["log"]), str(m["wall"]))
            out.print(table)
        for item in data["unchecked"]:
            line = f"unchecked: {item['file']} {item['game']} ({item['hands']} hands): {item['reason']}"
            out.print(line, markup=False, highlight=False)
    for item in run.unreadable:
        err.print(f"honba: {clipped(item.message)}", markup=False, highlight=False)
    if run.exit_code:
        raise typer.Exit(run.exit_code)


def print_verify_run(console: Console, run: VerifyRun) -> None:
    """The verify summary, then every disagreement, unsupported game and unreadable file."""
    columns = ("files", "games", "hands", "hands agreeing", "disagreements", "unsupported", "unreadable")
    summary = Grid("Verification", [Column(column, numeric=True) for column in columns], split=True)
    data = run.as_dict()
    summary.add_row(
        str(data["files"]),
        str(data["games"]),
        str(data["hands"]),
        str(data["hands_agreeing"]),
        str(len(data["disagreements"])),
        str(len(data["unsupported"])),
        str(len(data["unreadable"])),
    )
    console.print(summary)
    if data["disagreements"]:
        table = Grid(
            "Disagreements",
            [
                Column("file", key=True),
                Column("game", key=True),
                Column("hand", key=True),
                *map(Column, ("field", "log", "honba")),
            ],
        )
        for d in data["disagreements"]:
            table.add_row(d["file"], d["game"], d["hand"], d["field"], str(d["log"]), str(d["honba"]))
        console.print(table)
    for report in run.reports:
        if report.value_sources:
            taken = ", ".join(f"{count} from the {source}" for source, count in report.value_sources)
            line = f"hand values not in the log, taken {taken}: {report.file} {report.game}"
            console.print(line, markup=False, highlight=False)
    for item in data["notes"]:
        console.print(f"note: {item['file']} {item['game']}: {item['note']}", markup=False, highlight=False)
    for item in data["unsupported"]:
        console.print(f"unsupported: {item['file']} {item['game']}: {item['reason']}", markup=False, highlight=False)
    for item in data["unreadable"]:
        console.print(f"unreadable: {item['file']}: {item['reason']}", markup=False, highlight=False)
