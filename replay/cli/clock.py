"""``honba clock``: a table's or a session's time limit, its start, time added, the time left.

The time is the server's (this machine's clock, read by the service, never here); the match decides
from it when the time rule ends it (``Ruleset.hands_after_time``).
"""

from __future__ import annotations

from typing import Annotated

import typer

from replay.cli.layout import Column, Grid
from replay.cli.params import HonbaGroup
from replay.cli.render import json_text
from replay.cli.shell import ClientKey, app, guarded, out, shell
from replay.input.parsing import InputError
from replay.service.common.shapes import counted
from replay.service.recording.clock import (
    add_time,
    match_clock,
    session_clocks,
    set_session_time_limit,
    set_time_limit,
    start_clock,
    start_session_clock,
)

clock_app = typer.Typer(
    help="The clock: a table's or a session's time limit, starting it, adding time, the time left.",
    no_args_is_help=True,
    cls=HonbaGroup,
)
app.add_typer(clock_app, name="clock")

Key = Annotated[str | None, typer.Argument(help="The match (a table); or give --tournament and --session.")]
TournamentOption = Annotated[str | None, typer.Option("--tournament", help="The tournament (with --session).")]
SessionOption = Annotated[int | None, typer.Option("--session", help="The session: every table of it.")]
By = Annotated[str, typer.Option("--by", help="Who does it (kept in the match's log).")]


def _target(key: str | None, tournament: str | None, session: int | None) -> tuple[str, int] | None:
    """A session (tournament, number), or None for the match ``key``; one of the two, never both."""
    if key is not None and (tournament is not None or session is not None):
        raise InputError("name a match, or a tournament and a session, not both")
    if key is None:
        if tournament is None or session is None:
            raise InputError("name a match, or --tournament and --session")
        return tournament, session
    return None


@clock_app.command("set")
def set_(
    ctx: typer.Context,
    key: Key = None,
    minutes: Annotated[int, typer.Option("--minutes", help="The time limit, in minutes.")] = 0,
    tournament: TournamentOption = None,
    session: SessionOption = None,
    by: By = "director",
    client_key: ClientKey = None,
) -> None:
    """Set the time limit of a table, or of every table of a session (seated now or later)."""

    def run() -> str:
        target = _target(key, tournament, session)
        if target is None:
            assert key is not None
            set_time_limit(shell(ctx).app, key, minutes, by=by, client_key=client_key)
            return f"Time limit of {key!r}: {counted(minutes, 'minute')}"
        keys = set_session_time_limit(shell(ctx).app, target[0], target[1], minutes, by=by)
        return (
            f"Time limit of session {target[1]} of {target[0]!r}: {counted(minutes, 'minute')} "
            f"({counted(len(keys), 'table')} seated so far)"
        )

    out.print(guarded(run), soft_wrap=True)


@clock_app.command("start")
def start(
    ctx: typer.Context,
    key: Key = None,
    tournament: TournamentOption = None,
    session: SessionOption = None,
    by: By = "director",
    client_key: ClientKey = None,
) -> None:
    """Start the clock of a table, or of every table of a session at one time (now)."""

    def run() -> str:
        target = _target(key, tournament, session)
        if target is None:
            assert key is not None
            clock = start_clock(shell(ctx).app, key, by=by, client_key=client_key)
            return f"Clock of {key!r} started at {clock['started_at']}; time is up at {clock['deadline']}"
        started = start_session_clock(shell(ctx).app, target[0], target[1], by=by)
        tables = counted(len(started), "table")
        if not started:
            return f"Clock of session {target[1]} of {target[0]!r}: no table to start (each has started or ended)"
        clock = match_clock(shell(ctx).app, started[0])
        return (
            f"Clock of session {target[1]} of {target[0]!r} started at {clock['started_at']}: {tables}; "
            f"time is up at {clock['deadline']}"
        )

    out.print(guarded(run), soft_wrap=True)


@clock_app.command("add")
def add(
    ctx: typer.Context,
    key: Annotated[str, typer.Argument(help="The match (a table).")],
    minutes: Annotated[int, typer.Option("--minutes", help="Minutes to add.")],
    by: By = "director",
    reason: Annotated[str, typer.Option("--reason", help="Why (kept in the match's log).")] = "",
    client_key: ClientKey = None,
) -> None:
    """Add time to a table's clock (after time was up, it runs again)."""

    def run() -> str:
        clock = add_time(shell(ctx).app, key, minutes, by=by, reason=reason, client_key=client_key)
        return f"{counted(minutes, 'minute')} added to {key!r}; time is up at {clock['deadline']}"

    out.print(guarded(run), soft_wrap=True)


@clock_app.command("show")
def show(
    ctx: typer.Context,
    key: Key = None,
    tournament: TournamentOption = None,
    session: SessionOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for tools.")] = False,
) -> None:
    """The time left at a table, or at every table of a session, by this machine's clock."""

    def run() -> list[dict[str, object]]:
        target = _target(key, tournament, session)
        if target is None:
            assert key is not None
            return [match_clock(shell(ctx).app, key)]
        return session_clocks(shell(ctx).app, target[0], target[1])

    clocks = guarded(run)
    if as_json:
        print(json_text(clocks[0] if key is not None else clocks))
        return
    table = Grid(
        "Clock",
        [
            Column("match", key=True),
            Column("limit", numeric=True),
            Column("added", numeric=True),
            Column("time is up at"),
            Column("left"),
        ],
    )
    for clock in clocks:
        table.add_row(
            str(clock["match"]),
            "" if clock["limit_minutes"] is None else f"{clock['limit_minutes']} min",
            f"{clock['added_minutes']} min",
            str(clock["deadline"] or "-"),
            str(clock["text"]),
        )
    out.print(table)
