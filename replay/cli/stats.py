"""``honba stats``: player statistics over a tournament or every stored match, from the stored view."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from projections.stats import COUNTS
from replay.cli.shell import app, guarded, out, progress_bar, shell
from replay.parsing import InputError
from replay.player_stats import StatsReport, stats_data, stats_report
from replay.render import SafeConsole, json_text, spreadsheet_cells
from replay.tournaments import catch_up, open_view

# The CSV columns after the player's name: totals, then the rates made of them.
RATES = (
    "win_rate",
    "self_drawn_share",
    "deal_in_rate",
    "riichi_rate",
    "call_rate",
    "average_win",
    "average_deal_in",
    "ready_at_draw_rate",
    "dealer_keep_rate",
)
PLACES = ("first", "second", "third", "fourth")


@app.command()
def stats(
    ctx: typer.Context,
    tournament: Annotated[str | None, typer.Option("--tournament", help="The tournament's players.")] = None,
    every: Annotated[bool, typer.Option("--all", help="Everyone over every stored match.")] = False,
    player: Annotated[str | None, typer.Option("--player", help="Only this player.")] = None,
    fmt: Annotated[str, typer.Option("--format", help="table, csv, json or html.")] = "table",
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Write to a file instead of stdout.")] = None,
) -> None:
    """Player statistics (placements, win, deal-in and riichi rates, ...) from the stored view."""

    def run() -> StatsReport:
        if fmt not in ("table", "csv", "json", "html"):
            raise InputError(f"--format must be table, csv, json or html, not {fmt!r}")
        if (tournament is None) == (not every):
            raise InputError("name a tournament (--tournament NAME) or ask for every stored match (--all)")
        application = shell(ctx).app
        view = open_view(application)
        with progress_bar(2, "updating the standings view") as progress:
            task = progress.add_task("view", total=None, file="")
            catch_up(application, view, tick=lambda n: progress.update(task, completed=n, file=f"{n} events"))
        return stats_report(view, tournament, player)

    report = guarded(run)
    data = stats_data(report)
    if fmt == "json":
        text = json_text(data)
    elif fmt == "csv":
        text = stats_csv(data)
    elif fmt == "html":
        from replay.html.stats import render_stats_html

        text = render_stats_html(data)
    else:
        screen = out if output is None else SafeConsole(file=io.StringIO(), width=200, color_system=None)
        screen.print(stats_table(data))
        if report.in_progress:
            screen.print(f"{report.in_progress} matches still in progress do not count yet", markup=False)
        if output is None:
            return
        assert isinstance(screen.file, io.StringIO)
        text = screen.file.getvalue()
    if output is None:
        print(text, end="" if text.endswith("\n") else "\n")
    else:
        guarded(lambda: output.write_text(text, encoding="utf-8"))
        out.print(f"wrote {output}", markup=False)


def _percent(value: Any) -> str:
    return f"{100 * float(value):.1f}%"


def stats_table(data: dict[str, Any]) -> Table:
    """The figures as a console table (names as text, never markup)."""
    scope = data["tournament"]
    table = Table(title=Text(f"Statistics of {scope}" if scope else "Statistics over every stored match"))
    columns = (
        "player",
        "matches",
        "avg place",
        "1st",
        "2nd",
        "3rd",
        "4th",
        "points",
        "hands",
        "win",
        "self-drawn",
        "deal-in",
        "riichi",
        "calls",
        "avg win",
        "avg deal-in",
        "ready at draw",
        "dealer keeps",
        "counters",
        "deposits",
    )
    for column in columns:
        if column == "player":
            table.add_column(column, overflow="fold", min_width=8)
        else:
            table.add_column(column, justify="right", overflow="fold")
    for row in data["players"]:
        table.add_row(
            Text(row["player"]),  # a name is text, never markup
            str(row["matches"]),
            f"{row['average_place']:.2f}",
            *(str(c) for c in row["place_counts"]),
            f"{row['points']:+.1f}",
            str(row["hands"]),
            _percent(row["win_rate"]),
            _percent(row["self_drawn_share"]),
            _percent(row["deal_in_rate"]),
            _percent(row["riichi_rate"]),
            "—" if row["call_rate"] is None else _percent(row["call_rate"]),
            f"{row['average_win']:,.0f}",
            f"{row['average_deal_in']:,.0f}",
            _percent(row["ready_at_draw_rate"]),
            _percent(row["dealer_keep_rate"]),
            f"{row['counters_won']:,}",
            f"{row['deposits_won']:,}",
        )
    return table


def stats_csv(data: dict[str, Any]) -> str:
    """One line a player: totals, then rates (fractions), then the yaku as ``name:count;...``."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(
        spreadsheet_cells(
            [
                "player",
                "matches",
                *PLACES,
                *(f"{p}_rate" for p in PLACES),
                "average_place",
                "points",
                "net_score",
                *COUNTS,
                *RATES,
                "yaku",
            ]
        )
    )
    for row in data["players"]:
        writer.writerow(
            spreadsheet_cells(
                [
                    row["player"],
                    row["matches"],
                    *row["place_counts"],
                    *row["place_rates"],
                    row["average_place"],
                    row["points"],
                    row["net_score"],
                    *(row[c] for c in COUNTS),
                    *(row[r] for r in RATES),
                    ";".join(f"{name}:{count}" for name, count in row["yaku"].items()),
                ]
            )
        )
    return buffer.getvalue()
