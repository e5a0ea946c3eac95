"""``honba stats``: player statistics over a tournament or every stored match, from the stored view."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Group
from rich.text import Text

from projections.stats import COUNTS
from replay.cli.languages import DEFAULT, Lang, html_language
from replay.cli.layout import Column, Grid
from replay.cli.render import spreadsheet_cells
from replay.cli.reports import check_report_format, fresh_report, write_report
from replay.cli.shell import app, guarded, warn_if_damaged
from replay.html.stats import render_stats_html
from replay.input.parsing import InputError
from replay.service.tournaments.stats import StatsReport, stats_data, stats_report

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
    lang: Lang = DEFAULT,
) -> None:
    """Player statistics (placements, win, deal-in and riichi rates, ...) from the stored view."""

    def run() -> StatsReport:
        check_report_format(fmt)
        html_language(lang)
        if (tournament is None) == (not every):
            raise InputError("name a tournament (--tournament NAME) or ask for every stored match (--all)")
        return fresh_report(ctx, lambda view: stats_report(view, tournament, player))

    report = guarded(run)
    for key, why in sorted(report.damaged.items()):
        warn_if_damaged(f"match {key!r} is damaged in the store: {why}; see honba check {key}")
    data = stats_data(report)

    def html() -> str:
        return render_stats_html(data, lang)

    write_report(
        fmt,
        output,
        data,
        csv=lambda: stats_csv(data),
        html=html,
        table=lambda: Group(stats_table(data), *yaku_table(data)),
        in_progress=report.in_progress,
        width=200,
    )


def _percent(value: Any) -> str:
    return f"{100 * float(value):.1f}%"


def stats_table(data: dict[str, Any]) -> Grid:
    """The figures as a console table (names as text, never markup)."""
    scope = data["tournament"]
    title = Text(f"Statistics of {scope}" if scope else "Statistics over every stored match")
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
    # Split into tables of the columns that fit, each with the player's name (twenty columns
    # take about 200 characters).
    table = Grid(
        title, [Column(c, key=True) if c == "player" else Column(c, numeric=True) for c in columns], split=True
    )
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


def yaku_table(data: dict[str, Any]) -> list[Grid]:
    """Each player's wins by yaku, where the wins' yaku are known (logs, hands entered by their
    tiles): one row a player and yaku, the most frequent first; nothing when no yaku is known."""
    rows = [(row["player"], name, count) for row in data["players"] for name, count in row["yaku"].items()]
    if not rows:
        return []
    table = Grid("Wins by yaku", [Column("player", key=True), Column("yaku"), Column("wins", numeric=True)])
    for player, name, count in rows:
        table.add_row(Text(player), Text(name), str(count))
    return [table]


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
