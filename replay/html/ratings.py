"""``honba ratings --format html``: the ratings as a self-contained page, with each player's history
and a chart of it (matplotlib, inline SVG; no scripts, nothing loaded; every text escaped)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from replay.html.pages import CSS, esc, figure_svg, line_style
from replay.html.words import DEFAULT, Words, translations

# The chart draws the best rated players' histories (more lines would be unreadable); every
# player's history is in the tables below it.
CHARTED = 8
HISTORIES = 50


def ratings_chart_svg(
    players: Sequence[Mapping[str, Any]], system: str, charted: int = CHARTED, words: Words | None = None
) -> str:
    """The rating of the best rated players (the first ``charted``) after each match (OpenSkill) or
    event (EMA), each in a colour and line style of its own (colour-blind safe); its words in the
    language of ``words`` (English when none)."""
    w = words or translations(DEFAULT)
    shown = [p for p in players[:charted] if p.get("history")]
    if not shown:
        return ""
    # matplotlib (about a quarter of a second to load) only where a chart is drawn: ``honba serve``
    # imports this module for its ratings pages, and every page but those draws none.
    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "honba-ratings", "font.size": 10}):
        figure = Figure(figsize=(11, 4.6), layout="constrained")
        FigureCanvasAgg(figure)
        axes = figure.add_subplot()
        handles = []
        for index, player in enumerate(shown):
            history = player["history"]
            colour, style, marker = line_style(index)
            (line,) = axes.plot(
                [h["index"] for h in history],
                [h["rating"] for h in history],
                marker=marker,
                markersize=3,
                linewidth=1.8,
                color=colour,
                linestyle=style,
            )
            handles.append(line)
        axes.set_xlabel(w.gettext("match") if system == "openskill" else w.gettext("event"))
        axes.set_ylabel(w.gettext("rating (mu - 3 sigma)") if system == "openskill" else w.gettext("EMA-style ranking"))
        axes.grid(True, color="#e3e6ea", linewidth=0.8)
        for side in ("top", "right"):
            axes.spines[side].set_visible(False)
        legend = axes.legend(
            handles, [str(p["player"]) for p in shown], loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False
        )
        for text in legend.get_texts():
            text.set_parse_math(False)
        return figure_svg(figure, w.gettext("Ratings through time"))


def render_ratings_html(data: Mapping[str, Any], language: str = DEFAULT) -> str:
    """The ratings (``replay.service.director.ratings.ratings_data``) as a page to publish, in
    ``language`` (``replay.html.words``)."""
    w = translations(language)
    system = str(data.get("system", ""))
    openskill = system == "openskill"
    title = w.gettext("OpenSkill ratings") if openskill else w.gettext("EMA-style ranking")
    unit = w.gettext("matches") if openskill else w.gettext("events")
    one = w.gettext("match") if openskill else w.gettext("event")
    players: Sequence[Mapping[str, Any]] = data.get("players") or []
    rows = "".join(
        f'<tr><td class="num rank">{esc(p.get("rank"))}</td><td class="key">{esc(p.get("player"))}</td>'
        f'<td class="num">{float(p.get("rating", 0)):.1f}</td><td class="num">{esc(p.get("count"))}</td></tr>'
        for p in players
    )
    chart = ratings_chart_svg(players, system, words=w)
    caption = (
        w.gettext("The rating of the %(count)s best rated players after each of the matches they played.")
        if openskill
        else w.gettext("The rating of the %(count)s best rated players after each of the events they played.")
    ) % {"count": CHARTED}
    history = w.gettext("History")
    chart_section = (
        f'<section id="chart"><h2>{history}</h2>\n<figure>\n<div class="chart-box">{chart}</div>\n'
        f"<figcaption>{caption}</figcaption>\n</figure>\n</section>\n"
        if chart
        else ""
    )
    rating = w.gettext("rating")
    histories = "".join(
        f'<details><summary>{esc(p.get("player"))}</summary><div class="wide"><table class="ledger">'
        f"<thead><tr><th>#</th><th>{one}</th><th>{rating}</th></tr></thead>"
        "<tbody>"
        + "".join(
            f'<tr><td class="num">{esc(h.get("index"))}</td><td>{esc(h.get("label"))}</td>'
            f'<td class="num">{float(h.get("rating", 0)):.1f}</td></tr>'
            for h in p.get("history") or []
        )
        + "</tbody></table></div></details>\n"
        for p in players[:HISTORIES]
    )
    counted = (w.gettext("%(count)s matches counted.") if openskill else w.gettext("%(count)s events counted.")) % {
        "count": esc(data.get("counted"))
    }
    heads = [w.gettext("Ratings"), w.gettext("rank"), w.gettext("player"), w.gettext("Each player's history")]
    written = w.gettext("Written by <code>honba ratings</code> from the stored matches.")
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{esc(language)}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
        '<meta name="generator" content="honba ratings">\n'
        f"<title>{esc(title)} - honba</title>\n<style>{CSS}</style>\n</head>\n<body>\n"
        f"<header><h1>{esc(title)}</h1>\n<p>{counted}</p></header>\n"
        f'<section id="ratings"><h2>{heads[0]}</h2>\n<div class="wide"><table class="ledger">\n'
        f'<thead><tr><th class="rank">{heads[1]}</th><th class="key">{heads[2]}</th><th>{rating}</th>'
        f"<th>{unit}</th></tr></thead>\n"
        f"<tbody>\n{rows}\n</tbody>\n</table></div>\n</section>\n"
        f"{chart_section}"
        f'<section id="histories"><h2>{heads[3]}</h2>\n{histories}</section>\n'
        f'<p class="muted">{written}</p>\n'
        "</body>\n</html>\n"
    )
