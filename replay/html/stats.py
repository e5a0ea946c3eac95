"""``honba stats --format html``: the players' statistics as a self-contained page with charts.

Made like the standings page (``replay.html.pages``): CSS inline, no scripts, nothing
loaded, charts drawn by matplotlib as inline SVG, every name from the data as text.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from replay.html.pages import CSS, _int, _points, _signed, esc, figure_svg, said, standings_chart_svg
from replay.html.words import DEFAULT, N_, Words, translations
from replay.service.common.shapes import not_counted_yet

PLACE_COLOURS = ("#0072B2", "#56B4E9", "#E69F00", "#D55E00")
PLACE_NAMES = (N_("1st"), N_("2nd"), N_("3rd"), N_("4th"))


def _percent(value: Any) -> str:
    return f"{100 * float(value):.1f}%" if isinstance(value, int | float) else ""


def placement_chart_svg(data: Mapping[str, Any], words: Words | None = None) -> str:
    """Each player's share of 1st to 4th places, one stacked bar a player, as an inline ``<svg>``
    (its words in the language of ``words``, English when none)."""
    w = words or translations(DEFAULT)
    rows = [r for r in data.get("players") or [] if _int(r.get("matches"))]
    if not rows:
        return ""
    # matplotlib (about a quarter of a second to load) only where a chart is drawn.
    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "honba-stats", "font.size": 10}):
        figure = Figure(figsize=(11, 0.9 + 0.45 * len(rows)), layout="constrained")
        FigureCanvasAgg(figure)
        axes = figure.add_subplot()
        names = [str(r.get("player")) for r in rows]
        ys = list(range(len(rows)))
        left = [0.0] * len(rows)
        for place in range(4):
            shares = [float((r.get("place_rates") or [0, 0, 0, 0])[place]) * 100 for r in rows]
            axes.barh(ys, shares, left=left, color=PLACE_COLOURS[place], label=w.gettext(PLACE_NAMES[place]))
            left = [a + b for a, b in zip(left, shares, strict=True)]
        axes.set_yticks(ys)
        labels = axes.set_yticklabels(names)
        for text in labels:
            text.set_parse_math(False)
        axes.invert_yaxis()
        axes.set_xlim(0, 100)
        axes.set_xlabel(w.gettext("share of matches (%)"))
        for side in ("top", "right"):
            axes.spines[side].set_visible(False)
        axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
        return figure_svg(figure, w.gettext("Placement distribution"))


# The players' table's columns, in order (the places' heads are PLACE_NAMES).
COLUMNS = (
    N_("player"),
    N_("matches"),
    N_("avg place"),
    *PLACE_NAMES,
    N_("points"),
    N_("net score"),
    N_("hands"),
    N_("win"),
    N_("self-drawn"),
    N_("deal-in"),
    N_("riichi"),
    N_("calls"),
    N_("avg win"),
    N_("avg deal-in"),
    N_("ready at draw"),
    N_("dealer keeps"),
    N_("counters"),
    N_("deposits"),
)


def render_stats_html(data: dict[str, Any], language: str = DEFAULT) -> str:
    """The statistics (``replay.service.tournaments.stats.stats_data``) as a page to publish, in
    ``language`` (``replay.html.words``)."""
    w = translations(language)
    scope = data.get("tournament")
    title = (
        w.gettext("Statistics of %(name)s") % {"name": scope}
        if scope
        else w.gettext("Statistics over every stored match")
    )
    rows = data.get("players") or []
    header = "<tr>" + "".join(f"<th>{w.gettext(name)}</th>" for name in COLUMNS) + "</tr>"
    body = []
    for row in rows:
        places = "".join(f'<td class="num">{_int(c)}</td>' for c in row.get("place_counts") or [])
        body.append(
            f'<tr><td>{esc(row.get("player"))}</td><td class="num">{_int(row.get("matches"))}</td>'
            f'<td class="num">{esc(row.get("average_place"))}</td>{places}'
            f'<td class="num">{_points(row.get("points"))}</td><td class="num">{_signed(row.get("net_score"))}</td>'
            f'<td class="num">{_int(row.get("hands"))}</td>'
            + "".join(
                f'<td class="num">{_percent(row.get(k))}</td>'
                for k in ("win_rate", "self_drawn_share", "deal_in_rate", "riichi_rate")
            )
            # The call rate only where a log showed the calls: "—" for matches recorded at the table.
            + f'<td class="num">{_percent(row.get("call_rate")) or "—"}</td>'
            + f'<td class="num">{_int(row.get("average_win")):,}</td>'
            f'<td class="num">{_int(row.get("average_deal_in")):,}</td>'
            f'<td class="num">{_percent(row.get("ready_at_draw_rate"))}</td>'
            f'<td class="num">{_percent(row.get("dealer_keep_rate"))}</td>'
            f'<td class="num">{_int(row.get("counters_won")):,}</td>'
            f'<td class="num">{_int(row.get("deposits_won")):,}</td></tr>'
        )
    yaku_rows = "".join(
        f'<tr><td>{esc(row.get("player"))}</td><td>{esc(name)}</td><td class="num">{_int(count)}</td></tr>'
        for row in rows
        for name, count in (row.get("yaku") or {}).items()
    )
    yaku_heads = [w.gettext("Yaku"), w.gettext("player"), w.gettext("yaku"), w.gettext("wins")]
    yaku = (
        f'<section id="yaku"><h2>{yaku_heads[0]}</h2>\n<div class="wide"><table class="ledger">\n'
        f"<thead><tr><th>{yaku_heads[1]}</th><th>{yaku_heads[2]}</th><th>{yaku_heads[3]}</th></tr></thead>\n"
        f"<tbody>\n{yaku_rows}\n</tbody>\n</table></div>\n</section>\n"
        if yaku_rows
        else '<p class="muted">'
        + w.gettext("No yaku in these matches' events (recorded wins and the logs imported so far hold none).")
        + "</p>\n"
    )
    placement = placement_chart_svg(data, w)
    charts = ""
    if placement:
        placements = [w.gettext("Placement distribution"), w.gettext("Each player's share of first to fourth places.")]
        charts += (
            f'<section id="placements"><h2>{placements[0]}</h2>\n'
            f"<figure>\n{placement}\n<figcaption>{placements[1]}</figcaption>\n"
            "</figure>\n</section>\n"
        )
    # The cumulative points through the sessions: the standings page's chart, for the same players.
    sessions_chart = standings_chart_svg({"by_session": data.get("by_session") or {}, "rows": rows}, w)
    if sessions_chart:
        through = [
            w.gettext("Points through the sessions"),
            w.gettext("Each player's cumulative points after every session."),
        ]
        charts += (
            f'<section id="sessions"><h2>{through[0]}</h2>\n'
            f"<figure>\n{sessions_chart}\n<figcaption>{through[1]}</figcaption>\n</figure>\n</section>\n"
        )
    in_progress = _int(data.get("in_progress"))
    # (The service's sentence, as the command line prints it, in the page's language.)
    sentence = said(w, "%(sentence)s.", sentence=not_counted_yet(in_progress).spoken(w.gettext))
    note = f"<p>{sentence}</p>\n" if in_progress else ""
    finished = w.gettext(
        "%(count)s finished matches. Rates are shares of the hands played (win, deal-in, riichi), of the hands "
        "whose calls a game log showed (calls: chi, pon or open kong; — where no log did), of the wins "
        "(self-drawn), of the exhaustive draws (ready) and of the hands as dealer (dealer keeps)."
    ) % {"count": _int(data.get("matches"))}
    heads = [w.gettext("Players"), w.gettext("Written by <code>honba stats</code> from the stored matches.")]
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{esc(language)}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
        '<meta name="generator" content="honba stats">\n'
        f"<title>{esc(title)} - honba</title>\n<style>{CSS}</style>\n</head>\n<body>\n"
        f"<header><h1>{esc(title)}</h1>\n<p>{finished}</p></header>\n"
        f"{note}"
        f'<section id="stats"><h2>{heads[0]}</h2>\n<div class="wide"><table class="ledger">\n'
        f"<thead>{header}</thead>\n<tbody>\n{''.join(body)}\n</tbody>\n</table></div>\n</section>\n"
        f"{charts}{yaku}"
        f'<p class="muted">{heads[1]}</p>\n'
        "</body>\n</html>\n"
    )
