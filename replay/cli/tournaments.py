"""``honba tournament ...`` and ``honba standings``: who plays, which matches count, the table to publish."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import quote

import typer
from rich.console import Group

from domain.bounds import SEED, SESSION, TABLE, Bound
from replay.cli.languages import DEFAULT, Lang, html_language
from replay.cli.layout import Column, Grid
from replay.cli.params import HonbaGroup, number_argument, number_option
from replay.cli.render import spreadsheet_cells
from replay.cli.reports import check_report_format, fresh_report, write_report
from replay.cli.shell import app, err, guarded, out, progress_bar, quiet_after_interrupt, shell, warn_if_damaged
from replay.html.pages import render_standings_html
from replay.html.sheet import PAPERS, render_sheet_html
from replay.input.files import write_whole
from replay.input.parsing import InputError
from replay.service.common.access import TableLink, TokenStore
from replay.service.common.shapes import counted
from replay.service.director.address import PUBLIC_URL_ENV, configured_public_url
from replay.service.director.director import SeatedTable, seat_session
from replay.service.director.stages import event_report
from replay.service.director.standings_page import standings_page_data
from replay.service.tournaments.sheets import sheet_data
from replay.service.tournaments.sign_off import require_sign_off, unconfirmed
from replay.service.tournaments.standings import StandingsReport, follow_view, standings_data, update_view
from replay.service.tournaments.tournaments import (
    attach_match,
    create_tournament,
    declare_alias,
    detach_match,
    plan_session,
    show_tournament,
    withdraw_alias,
)

# How long ``views follow`` may run before it stops by itself: up to a year.
FOLLOW_SECONDS = Bound("seconds", 0, 366 * 24 * 3600)

tournament_app = typer.Typer(
    help="Tournaments: players, aliases, sessions and the matches that count.", no_args_is_help=True, cls=HonbaGroup
)
app.add_typer(tournament_app, name="tournament")

Name = Annotated[str, typer.Argument(help="The tournament's name.")]
Reason = Annotated[str, typer.Option("--reason", help="Why (kept in the tournament's log).")]


def _change(change: Callable[[], None], done: str) -> None:
    """Run a change of the tournament (the service's) and say what was done."""
    guarded(change)
    out.print(done, markup=False)


@tournament_app.command("create")
def create(
    ctx: typer.Context,
    name: Name,
    players: Annotated[str, typer.Option(help="Players, comma-separated (more join as their matches are added).")] = "",
) -> None:
    """Create a tournament (again: adds the players it lacks, nothing else)."""
    created = guarded(lambda: create_tournament(shell(ctx).app, name, players.split(",")))
    if created.new:
        out.print(f"Tournament {name!r} created with {counted(len(created.players), 'player')}", markup=False)
    else:
        added = f"; added {', '.join(created.added)}" if created.added else "; nothing new"
        out.print(
            f"Tournament {name!r} is already stored, with {counted(len(created.players), 'player')}{added}",
            markup=False,
        )


@tournament_app.command("alias")
def alias(
    ctx: typer.Context,
    name: Name,
    log_name: Annotated[str, typer.Argument(help="A name the player appears under in logs.")],
    player: Annotated[str, typer.Argument(help="The tournament player it is.")],
) -> None:
    """Declare that a log name is a player (one person, several names)."""
    _change(
        lambda: declare_alias(shell(ctx).app, name, log_name, player),
        f"{log_name!r} now counts as {player!r} in {name!r}",
    )


@tournament_app.command("unalias")
def unalias(
    ctx: typer.Context, name: Name, log_name: Annotated[str, typer.Argument(help="The alias.")], reason: Reason
) -> None:
    """Withdraw an alias declared by mistake (the name counts for itself again)."""
    _change(
        lambda: withdraw_alias(shell(ctx).app, name, log_name, reason),
        f"{log_name!r} no longer stands for anyone else in {name!r}",
    )


@tournament_app.command("attach")
def attach(
    ctx: typer.Context,
    name: Name,
    match: Annotated[str, typer.Argument(help="A stored match's key.")],
    session: Annotated[
        int, number_option("--session", bound=SESSION, help="The session (round) it was played in.")
    ] = 1,
    table: Annotated[int | None, number_option("--table", bound=TABLE, help="The table it was played at.")] = None,
) -> None:
    """Count a stored match for the tournament."""
    _change(
        lambda: attach_match(shell(ctx).app, name, match, session, table),
        f"Match {match!r} counts for {name!r} in session {session}",
    )


@tournament_app.command("detach")
def detach(
    ctx: typer.Context, name: Name, match: Annotated[str, typer.Argument(help="The match.")], reason: Reason
) -> None:
    """Stop counting a match attached by mistake."""
    _change(lambda: detach_match(shell(ctx).app, name, match, reason), f"Match {match!r} no longer counts for {name!r}")


@tournament_app.command("seat")
def seat(
    ctx: typer.Context,
    name: Name,
    session: Annotated[int, number_argument(bound=SESSION, help="The session (round).")],
    tables: Annotated[
        list[str] | None,
        typer.Argument(
            help="One argument per table: its players in seat order, comma-separated. Without any, honba seats "
            "the session (--method) and starts a match per table."
        ),
    ] = None,
    method: Annotated[
        str | None,
        typer.Option(help="Without TABLES: fewest-repeats (keep players from meeting twice; the default) or random."),
    ] = None,
    rules: Annotated[
        str | None, typer.Option(help="Without TABLES: the preset of the tables' matches (default: tenhou).")
    ] = None,
    seed: Annotated[
        int | None,
        number_option("--seed", bound=SEED, help="Without TABLES: the same seed gives the same seating."),
    ] = None,
    public_url: Annotated[
        str | None,
        typer.Option(
            help=f"The address phones open the server at, printed before each link (default: {PUBLIC_URL_ENV})."
        ),
    ] = None,
) -> None:
    """Record a session's seating as given, or seat it (as the director's page does: random or
    fewest repeats), start a match per table and print each table's link."""
    if tables:
        if method is not None or seed is not None or rules is not None:
            guarded(lambda: _refuse("give the tables, or --method (--seed, --rules) to let honba seat them, not both"))
        seating = [[p.strip() for p in t.split(",") if p.strip()] for t in tables]
        _change(
            lambda: plan_session(shell(ctx).app, name, session, seating),
            f"Session {session} of {name!r}: {counted(len(seating), 'table')}",
        )
        return
    how = method or "fewest-repeats"

    def run() -> tuple[list[SeatedTable], int]:
        application = shell(ctx).app
        return seat_session(
            application, TokenStore(application), name, session, method=how, rules=rules or "tenhou", seed=seed
        )

    public = guarded(lambda: configured_public_url(public_url))
    seated, repeats = guarded(run)
    out.print(
        f"Session {session} of {name!r} seated ({how}): {counted(len(seated), 'table')}, "
        f"{counted(repeats, 'pair')} meeting again",
        markup=False,
    )
    grid = Grid(None, [Column("table", numeric=True, key=True), Column("players"), Column("match")])
    for table in seated:
        grid.add_row(str(table.table), ", ".join(table.players), table.match)
    out.print(grid)
    out.print("Each table's link (shown once: the store keeps only its hash):", markup=False)
    for table in seated:
        link = TableLink(table.match, table.token)
        # A link is one word to copy: left to the terminal to wrap, never broken by a newline.
        out.print(
            f"  table {table.table}, table link: {(public or '') + link.path}",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )
    if public is None:
        out.print(
            f"(the server's address goes before each link: set {PUBLIC_URL_ENV} or give --public-url to print it)",
            markup=False,
        )


@tournament_app.command("sheet")
def sheet(
    ctx: typer.Context,
    name: Name,
    session: Annotated[int, number_argument(bound=SESSION, help="The session (round).")],
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Write to a file instead of stdout.")] = None,
    paper: Annotated[str, typer.Option(help="a4 or letter.")] = "a4",
    public_url: Annotated[
        str | None,
        typer.Option(
            "--public-url",
            help="The server's address as phones reach it (http://192.168.1.20:8000; default: "
            f"{PUBLIC_URL_ENV}): each sheet's QR code opens its table's page there (read only: the table "
            "links are on the director's page).",
        ),
    ] = None,
    lang: Lang = DEFAULT,
) -> None:
    """The session's score sheets to print, one page a table (HTML: print it, or save it as PDF):
    players, seats, rules, empty rows per hand, columns as `honba audit --against` reads them."""

    def run() -> str:
        if paper not in PAPERS:
            raise InputError(f"--paper must be {' or '.join(PAPERS)}, not {paper!r}")
        language = html_language(lang)
        public = configured_public_url(public_url)
        data = sheet_data(shell(ctx).app, name, session)
        if public is None:
            return render_sheet_html(data, {}, paper, language)
        base = public.rstrip("/")
        links = {t["table"]: f"{base}/matches/{quote(t['match'], safe='')}" for t in data["tables"] if t["match"]}
        return render_sheet_html(data, links, paper, language)

    body = guarded(run)
    if output is None:
        print(body, end="")
    else:
        guarded(lambda: write_whole(output, body))
        out.print(f"Score sheets of session {session} of {name!r} written to {output}", markup=False)


def _refuse(message: str) -> None:
    raise InputError(message)


@tournament_app.command("sign-off")
def sign_off(
    ctx: typer.Context,
    name: Name,
    off: Annotated[bool, typer.Option("--off", help="Matches count as entered again, with no sign-off.")] = False,
) -> None:
    """Have the players confirm each match's final scores on the table's phone (the WRC rules'
    sign-off): until each has (or the referee has), the standings list the match as unconfirmed."""
    _change(
        lambda: require_sign_off(shell(ctx).app, name, not off),
        f"{name!r}: " + ("no sign-off" if off else "the players confirm each match's final scores"),
    )


@tournament_app.command("show")
def show(ctx: typer.Context, name: Name) -> None:
    """Players, aliases, sessions and matches of a tournament."""
    tournament = guarded(lambda: show_tournament(shell(ctx).app, name))
    out.print(
        f"Tournament {name!r}: {counted(len(tournament.players), 'player')}, "
        f"{counted(len(tournament.matches), 'match')}",
        markup=False,
    )
    if tournament.aliases:
        out.print("Aliases: " + ", ".join(f"{a} = {p}" for a, p in sorted(tournament.aliases.items())), markup=False)
    players = Grid("Players", [Column("player", key=True), Column("team"), Column("comes and goes")])
    for player in tournament.players:
        notes = []
        if player in tournament.substitutes:
            notes.append(f"substitute for {tournament.substitutes[player]}")
        if player in tournament.withdrawn:
            notes.append(f"withdrew after session {tournament.withdrawn[player]}")
        players.add_row(player, tournament.teams.get(player, ""), "; ".join(notes))
    out.print(players)
    for session, tables in sorted(tournament.sessions.items()):
        seating = Grid(f"Session {session}", [Column("table", numeric=True, key=True), Column("players")])
        for number, seated in enumerate(tables, start=1):
            seating.add_row(str(number), ", ".join(seated))
        out.print(seating)
    table = Grid("Matches", [Column("match", key=True), Column("session", numeric=True), Column("table", numeric=True)])
    for key, (match_session, at_table) in sorted(tournament.matches.items(), key=lambda item: (item[1][0], item[0])):
        table.add_row(key, str(match_session), "" if at_table is None else str(at_table))
    out.print(table)
    for key, why in sorted(tournament.detached.items()):
        out.print(f"Detached: {key} ({why})", markup=False)
    for session, minutes in sorted(tournament.time_limits.items()):
        out.print(f"Session {session}: time limit {counted(minutes, 'minute')}", markup=False)


@app.command()
def standings(
    ctx: typer.Context,
    tournament: Annotated[str, typer.Option("--tournament", help="The tournament.")],
    after: Annotated[int | None, number_option("--after", bound=SESSION, help="Standings after this session.")] = None,
    fmt: Annotated[str, typer.Option("--format", help="table, csv, json or html.")] = "table",
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Write to a file instead of stdout.")] = None,
    lang: Lang = DEFAULT,
) -> None:
    """The standings of a tournament, from the stored view (brought up to date first)."""

    def run() -> tuple[StandingsReport, list[dict[str, Any]]]:
        check_report_format(fmt)
        html_language(lang)
        # A table or CSV needs the standings alone: read from one document of the view.
        matches = fmt not in ("table", "csv")
        store = shell(ctx).app
        return fresh_report(
            ctx,
            lambda view: (
                event_report(store, view, tournament, after_session=after, matches=matches),
                unconfirmed(store, view, tournament),
            ),
        )

    report, pending = guarded(run)
    for key, why in sorted(report.damaged.items()):
        warn_if_damaged(f"match {key!r} is damaged in the store: {why}; see honba check {key}")
    for match in pending:
        # An event with a sign-off: a finished match the players have not confirmed yet.
        err.print(f"honba: match {match['match']!r}: final scores {match['status']}", markup=False)
    data = standings_data(report, pending)

    def html() -> str:
        # The public page's report (its stages, teams and needs too), rendered by its own template.
        page = guarded(
            lambda: fresh_report(ctx, lambda view: standings_page_data(shell(ctx).app, view, tournament, after))
        )
        return render_standings_html(page["standings"], page["results"], page["needs"], after, lang)

    write_report(
        fmt,
        output,
        data,
        csv=lambda: _csv(report),
        html=html,
        table=lambda: Group(_table(report, after), *filter(None, [_tables_in_progress(data)])),
        in_progress=report.in_progress,
        width=160,
    )


def _table(report: StandingsReport, after: int | None) -> Grid:
    title = f"Standings of {report.name}" + (f" after session {after}" if after is not None else "")
    if report.said:
        # Said as the page says it (standings_section.html): the service's one sentence.
        title += f" ({report.said})"
    columns = [
        Column("rank", numeric=True, key=True),
        Column("player", key=True),
        # A staged event: the stage whose line each row is (the last the player reached).
        *([Column("stage")] if report.stages else []),
        Column("points", numeric=True),
        Column("net score", numeric=True),
        Column("matches", numeric=True),
        Column("avg place", numeric=True),
        *(Column(place, numeric=True) for place in ("1st", "2nd", "3rd", "4th")),
        # Penalties are in table points (a chombo of 8,000), beside the placement points above.
        Column("penalties (table points)", numeric=True),
    ]
    table = Grid(title, columns, split=True)
    for row in report.rows:
        # A player without a finished match has no rank and no average place yet.
        table.add_row(
            NOTHING if row.rank is None else str(row.rank),
            row.player,
            *([report.stages.get(row.player, "")] if report.stages else []),
            # Nothing played yet is no score of 0 (the web's standings show the same dash); points
            # carried into a stage before its first match are shown.
            f"{row.points:+.1f}" if row.matches or row.points else NOTHING,
            f"{row.net_score:+,}" if row.matches else NOTHING,
            str(row.matches),
            NOTHING if row.average_place is None else f"{row.average_place:.2f}",
            *(str(c) for c in row.place_counts),
            f"{row.penalties:,}",
        )
    return table


NOTHING = "—"


def _tables_in_progress(data: dict[str, Any]) -> Grid | None:
    """The tables still playing: the hand each is at, every seat's score, place and provisional points."""
    tables = data["tables_in_progress"]
    if not tables:
        return None
    grid = Grid(
        "Tables in progress (provisional: points if they ended now, not counted above)",
        [
            Column("match", key=True),
            Column("hand", key=True),
            Column("player"),
            Column("score", numeric=True),
            Column("place", numeric=True),
            Column("points", numeric=True),
        ],
    )
    for table in tables:
        for number, seat in enumerate(table["seats"]):
            first = number == 0
            grid.add_row(
                table["match"] if first else "",
                (table["hand"] or "") if first else "",
                seat["player"],
                f"{seat['score']:,}",
                NOTHING if seat["place"] is None else str(seat["place"]),
                NOTHING if seat["points"] is None else f"{seat['points']:+.1f}",
            )
    return grid


def _csv(report: StandingsReport) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(
        spreadsheet_cells(
            [
                "rank",
                "player",
                *(["stage"] if report.stages else []),
                "points",
                "net_score",
                "matches",
                "average_place",
                "first",
                "second",
                "third",
                "fourth",
                "penalties",
            ]
        )
    )
    for row in report.rows:
        writer.writerow(
            spreadsheet_cells(
                [
                    row.rank,
                    row.player,
                    *([report.stages.get(row.player, "")] if report.stages else []),
                    row.points,
                    row.net_score,
                    row.matches,
                    row.average_place,
                    *row.place_counts,
                    row.penalties,
                ]
            )
        )
    return buffer.getvalue()


views_app = typer.Typer(
    help="The stored standings view: bring it up to date, or follow new events live.", cls=HonbaGroup
)
app.add_typer(views_app, name="views")


@views_app.command("update")
def views_update(ctx: typer.Context) -> None:
    """Fold every event the standings view has not seen yet (any store)."""

    def run() -> int:
        with progress_bar(2, "updating the standings view") as progress:
            task = progress.add_task("view", total=None, file="")
            return update_view(shell(ctx).app, tick=lambda n: progress.update(task, completed=n, file=f"{n} events"))

    folded = guarded(run)
    out.print(f"The standings view took in {folded} new events", markup=False)


@views_app.command("follow")
def views_follow(
    ctx: typer.Context,
    seconds: Annotated[
        float | None,
        number_option("--seconds", bound=FOLLOW_SECONDS, help="Stop after this many seconds (default: until Ctrl-C)."),
    ] = None,
) -> None:
    """Follow new events live into the standings view (PostgreSQL: told of new events; SQLite: polls the log)."""

    def started() -> None:
        out.print("Following new events into the standings view (Ctrl-C to stop)", markup=False)

    def run() -> None:
        try:
            follow_view(shell(ctx).app, seconds, started=started)
        except KeyboardInterrupt:
            quiet_after_interrupt()

    guarded(run)
