"""``honba ratings``: ratings across events from the stored matches (OpenSkill or EMA-style)."""

from __future__ import annotations

import csv
import io
from datetime import date
from pathlib import Path
from typing import Annotated, Any

import typer

from domain.bounds import Bound, shown
from replay.cli.languages import DEFAULT, Lang, html_language
from replay.cli.layout import Column, Grid
from replay.cli.params import number_option
from replay.cli.render import spreadsheet_cells
from replay.cli.reports import check_report_format, fresh_view, write_report
from replay.cli.shell import app, guarded, shell
from replay.input.parsing import InputError
from replay.service.common.shapes import counted

# Counting results: an event a week for two centuries is fewer.
MIN_RESULTS = Bound("min results", 0, 10_000)
# Players listed: more than anyone reads, fewer than a rating list of the world holds.
TOP = Bound("top", 1, 1_000_000)


@app.command()
def ratings(
    ctx: typer.Context,
    system: Annotated[
        str, typer.Option("--system", help="openskill (Plackett-Luce) or ema (MERS-style).")
    ] = "openskill",
    tournament: Annotated[
        list[str] | None, typer.Option("--tournament", help="Only this tournament's matches (repeatable).")
    ] = None,
    player: Annotated[str | None, typer.Option("--player", help="One player only.")] = None,
    as_of: Annotated[
        str | None, typer.Option("--as-of", help="EMA: the day the ranking is for (default: the last event's).")
    ] = None,
    min_results: Annotated[
        int, number_option("--min-results", bound=MIN_RESULTS, help="EMA: results a player needs to be listed.")
    ] = 2,
    top: Annotated[int, number_option("--top", bound=TOP, help="The table lists this many players.")] = 50,
    fmt: Annotated[str, typer.Option("--format", help="table, csv, json or html.")] = "table",
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Write to a file instead of stdout.")] = None,
    lang: Lang = DEFAULT,
) -> None:
    """Ratings across events from the stored matches: a correction to a match moves them."""
    from replay.service.director.ratings import ratings_data

    def run() -> dict[str, Any]:
        check_report_format(fmt)
        html_language(lang)
        try:
            day = date.fromisoformat(as_of) if as_of is not None else None
        except ValueError:
            raise InputError(f"--as-of is a date like 2026-11-21, not {shown(as_of)}") from None
        return ratings_data(
            shell(ctx).app,
            fresh_view(ctx),
            system,
            tournaments=tournament or (),
            as_of=day,
            min_results=min_results,
            player=player,
        )

    data = guarded(run)

    def html() -> str:
        from replay.html.ratings import render_ratings_html

        return render_ratings_html(data, lang)

    write_report(
        fmt, output, data, csv=lambda: _csv(data), html=html, table=lambda: _table(data, top), in_progress=0, width=100
    )


def _table(data: dict[str, Any], top: int) -> Grid:
    unit = "match" if data["system"] == "openskill" else "event"
    table = Grid(
        f"{data['system']} ratings over {counted(data['counted'], unit)}",
        [
            Column("rank", numeric=True, key=True),
            Column("player", key=True),
            Column("rating", numeric=True),
            Column("matches" if unit == "match" else "events", numeric=True),
        ],
    )
    for row in data["players"][:top]:
        table.add_row(str(row["rank"]), row["player"], f"{row['rating']:.1f}", str(row["count"]))
    return table


def _csv(data: dict[str, Any]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(spreadsheet_cells(["rank", "player", "rating", "count", "mu", "sigma"]))
    for row in data["players"]:
        writer.writerow(
            spreadsheet_cells([row["rank"], row["player"], row["rating"], row["count"], row["mu"], row["sigma"]])
        )
    return buffer.getvalue()
