"""``honba audit --html``: the audit as one self-contained page a referee opens in a browser.

The input is the audit as plain data (``replay.service.audit.audit.report_data``); the output is a
single HTML document with its CSS inline and the chart of the scores through the
match drawn by matplotlib as SVG, embedded inline. The page loads nothing (no
scripts, fonts, images or styles from anywhere; a Content-Security-Policy says so),
and every text that comes from the data is escaped. A pure function: data in, text out.
"""

from __future__ import annotations

import html
import io
import json
import threading
import warnings
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.figure import Figure

from replay.html.templating import render
from replay.html.words import DEFAULT, N_, Words, translations, when

# Colours that stay apart for most kinds of colour blindness (Okabe and Ito), one a seat.
PLAYER_COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")
CORRECTED_COLOUR = "#F0C808"

CSS = """
:root { color-scheme: light; --ink: #1d1d1f; --muted: #5f6368; --line: #d0d4da; --ok: #137333;
        --bad: #b3261e; --mark: #fff4c2; --head: #f3f5f8; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; color: var(--ink);
       margin: 0 auto; padding: 24px 32px 48px; max-width: 1500px; background: #fff; }
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 32px 0 8px; padding-bottom: 4px; border-bottom: 2px solid var(--line); }
h3 { font-size: 15px; margin: 18px 0 6px; }
p { margin: 6px 0; }
.muted { color: var(--muted); }
code, .digest { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 12px;
                word-break: break-all; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 12px 0; }
dl.facts dt { font-weight: 600; color: var(--muted); }
dl.facts dd { margin: 0; }
.status { border-radius: 6px; padding: 10px 14px; margin: 8px 0; border: 1px solid; }
.status.ok { background: #e6f4ea; border-color: #a8dab5; color: var(--ok); }
.status.bad { background: #fce8e6; border-color: #f4b4ad; color: var(--bad); }
.status strong { font-size: 15px; }
.status ul { margin: 6px 0 0; padding-left: 20px; color: var(--ink); }
table { border-collapse: collapse; margin: 8px 0; width: 100%; }
th, td { border: 1px solid var(--line); padding: 4px 6px; vertical-align: top; text-align: left; }
thead th { background: var(--head); position: sticky; top: 0; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.num { white-space: nowrap; }
.plus { color: var(--ok); }
.minus { color: var(--bad); }
.score { display: block; font-weight: 600; }
ul.payments { list-style: none; margin: 0; padding: 0; }
ul.payments li { margin: 0 0 2px; }
td.result { min-width: 10em; }
td.payments { min-width: 13em; }
.nowrap { white-space: nowrap; }
.wide { overflow-x: auto; }
th { white-space: nowrap; }
th.player { white-space: normal; overflow-wrap: anywhere; min-width: 5.5em; }
.reason { color: var(--muted); }
tr.corrected td { background: var(--mark); }
tr.corrected td:first-child { box-shadow: inset 4px 0 0 #c99a00; }
.badge { display: inline-block; font-size: 11px; font-weight: 700; padding: 0 6px; border-radius: 8px;
         background: #c99a00; color: #fff; margin-left: 4px; white-space: nowrap; }
.badge.changed { background: var(--bad); }
tr.changed td { background: #fdecea; }
.pass { color: var(--muted); font-size: 12px; }
figure { margin: 8px 0; }
figure svg { width: 100%; max-width: 1100px; height: auto; display: block; }
figcaption { color: var(--muted); font-size: 12px; }
.first { font-weight: 600; color: var(--bad); }
@media print { body { padding: 0; } thead th { position: static; } h2 { break-after: avoid; } }
/* On a phone: less margin; a wide table scrolls in its own box with its rank and player kept in
   view; a chart keeps a readable size and scrolls in its box, starting at its right end, where each
   line names its player (right to left for the box only). */
@media (max-width: 640px) { body { padding: 12px 10px 32px; } h1 { font-size: 20px; } }
.wide td.rank, .wide th.rank { position: sticky; left: 0; background: #fff; min-width: 3em; width: 3em; z-index: 1; }
.wide td.key, .wide th.key { position: sticky; left: 3em; background: #fff; z-index: 1; overflow-wrap: anywhere;
                             min-width: 6em; max-width: 10em; }
.wide thead th.rank, .wide thead th.key { background: var(--head); z-index: 2; }
.chart-box { overflow-x: auto; direction: rtl; }
.chart-box > svg { direction: ltr; min-width: 640px; }
/* The audit report's chart: the one drawn for the screen's width. Its links to entries are targets. */
.chart-narrow { display: none; }
.audit table.corrections td a, a.badge { display: inline-flex; align-items: center; justify-content: center;
                                  min-width: 44px; min-height: 44px; }
/* On a phone the audit's ledger and corrections are a card per row, each cell labelled: no table
   wider than the screen. */
@media (max-width: 640px) {
  .chart-wide { display: none; }
  .chart-narrow { display: block; }
  .audit .wide:has(> table.ledger) { overflow-x: visible; }
  .audit table.ledger, .audit table.corrections, .audit table.ledger tbody, .audit table.corrections tbody {
    display: block; }
  .audit table.ledger thead, .audit table.corrections thead { display: none; }
  .audit table.ledger tr, .audit table.corrections tr { display: block; border: 1px solid var(--line);
    border-radius: 6px; margin: 0 0 8px; padding: 4px 6px; }
  .audit table.ledger td, .audit table.corrections td { display: flex; gap: 8px; justify-content: space-between;
    border: 0; padding: 2px 0; min-width: 0; text-align: right; }
  .audit table.ledger td::before, .audit table.corrections td::before { content: attr(data-label);
    color: var(--muted); font-weight: 600; text-align: left; flex: 0 0 auto; max-width: 45%;
    overflow-wrap: anywhere; }
  .audit table.ledger td.result, .audit table.ledger td.payments { min-width: 0; display: block; text-align: left; }
  .audit table.ledger td.result::before, .audit table.ledger td.payments::before { display: block; max-width: none; }
  .audit table.ledger td .score { display: inline; margin-left: 8px; }
  .audit table.ledger td[data-label]:not(.result):not(.payments)::before { flex: 1 1 auto; max-width: none;
    white-space: normal; }
  .audit table.ledger td.num { white-space: nowrap; }
  .audit th.player { min-width: 0; }
  .audit table.final th, .audit table.final td { padding: 4px 3px; }
}
details.need { margin: 4px 0; }
details.need > summary { cursor: pointer; }
.need .who { font-weight: 600; }
"""

# What the standings report's template (shared with the web, whose stylesheets say the same in
# tournament.css) needs beside CSS: tables that scroll in their own box with the rank and the player
# kept in view, the cards of the tables in progress, the badges of a stage.
REPORT_CSS = """
main { max-width: 1100px; overflow-wrap: break-word; }
td.player, th.player { overflow-wrap: anywhere; }
.scroll { overflow-x: auto; max-width: 100%; margin: 6px 0; }
.scroll > table { width: auto; min-width: 100%; }
.scroll .rank { position: sticky; left: 0; width: 3.4em; min-width: 3.4em; background: #fff; z-index: 1; }
.scroll .player { position: sticky; left: 3.4em; background: #fff; z-index: 1; overflow-wrap: anywhere;
                  min-width: 6em; max-width: 11em; }
.scroll .player.first { left: 0; }
.small { font-size: 12px; }
.badge.provisional { background: #c99a00; }
.badge.cut { background: var(--bad); }
.badge.advanced { background: var(--ok); }
ul.cards, ul.matches { list-style: none; padding: 0; }
ul.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(16rem, 1fr)); gap: 12px; }
ul.cards > li { border: 1px solid var(--line); border-radius: 8px; padding: 8px 10px; min-width: 0; }
ul.cards h3 { margin: 2px 0 6px; }
ul.cards td.player, ul.cards th.player { min-width: 0; position: static; }
figure.chart svg { max-width: 100%; height: auto; }
"""


def esc(value: object) -> str:
    """Any value from the data as HTML text (quotes escaped too, so it is safe in attributes)."""
    return html.escape(str(value), quote=True)


def _int(value: Any) -> int:
    return int(value) if isinstance(value, int | float) else 0


def _or_dash(value: Any) -> str:
    """A rank or an average place, or "—" where there is none yet (a player without a finished match)."""
    return "—" if value is None else esc(value)


def _number(value: Any) -> str:
    return f"{_int(value):,}"


def _signed(value: Any) -> str:
    """A change with its sign and a class that colours it."""
    amount = _int(value)
    cls = "plus" if amount > 0 else "minus" if amount < 0 else "zero"
    return f'<span class="{cls}">{amount:+,}</span>'


def _points(value: Any) -> str:
    return f"{float(value):+.1f}" if isinstance(value, int | float) else ""


def _text(value: Any) -> str:
    """A source value as text: strings as they are, anything else as JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _players(data: Mapping[str, Any]) -> list[str]:
    return [str(p) for p in data.get("players") or []]


def _rows(items: Iterable[str]) -> str:
    return "\n".join(items)


def said(words: Words, message: str, **values: object) -> str:
    """``message`` in the language of ``words``, its places (``%(name)s``) filled with ``values``
    escaped as data (the message itself is the catalogue's, which may hold markup of its own)."""
    return words.gettext(message) % {name: esc(value) for name, value in values.items()}


def render_audit_html(data: dict[str, Any], language: str = DEFAULT) -> str:
    """The audit report (``replay.service.audit.audit.report_data``) as one self-contained HTML page,
    in ``language`` (``replay.html.words``: English, Japanese); what the data says (results,
    findings, reasons) is shown as the service words it."""
    w = translations(language)
    key = str(data.get("match", ""))
    sections = [
        _header(data, w),
        _integrity(data, w),
        _summary(data, w),
        _chart_section(data, w),
        _ledger_section(data, w),
        _corrections_section(data, w, language),
        _clock_section(data, w),
        _findings_section(data, w),
        _sheet_section(data, w),
        _what_if_section(data, w),
    ]
    body = "\n".join(s for s in sections if s)
    # (Every text of the catalogue is said outside an f-string: Babel's extractor reads no f-string.)
    title = said(w, "Audit of %(key)s", key=key)
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{esc(language)}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
        '<meta name="generator" content="honba audit">\n'
        f"<title>{title} - honba</title>\n<style>{CSS}</style>\n</head>\n"
        '<body class="audit">\n'
        f"{body}\n"
        '<p class="muted">'
        + w.gettext(
            "Written by <code>honba audit</code> from the stored events of the match; "
            "the originals of corrected entries stay in the log."
        )
        + "</p>\n</body>\n</html>\n"
    )


def _header(data: Mapping[str, Any], w: Words) -> str:
    players = _players(data)
    seat_of = w.gettext("(seat %(seat)s)")
    seats = ", ".join(
        f'{esc(name)} <span class="muted">{seat_of % {"seat": seat}}</span>' for seat, name in enumerate(players)
    )
    source = data.get("source") or {}
    if isinstance(source, Mapping) and source:
        source_html = "<br>".join(f"{esc(k)}: {esc(_text(v))}" for k, v in source.items())
    elif source:
        source_html = esc(_text(source))
    else:
        source_html = '<span class="muted">' + w.gettext("not stated") + "</span>"
    description = data.get("rules_description") or ""
    rules = esc(data.get("rules", ""))
    if description:
        rules += f' <span class="muted">- {esc(description)}</span>'
    heads = [
        w.gettext("Audit of match"),
        w.gettext("Match"),
        w.gettext("Players"),
        w.gettext("Rules"),
        w.gettext("Source"),
    ]
    return (
        "<header>\n"
        f"<h1>{heads[0]} <code>{esc(data.get('match', ''))}</code></h1>\n"
        '<p class="muted">'
        + w.gettext(
            "Every number of the match explained: the ledger of the corrected history, "
            "the corrections, the checks and the integrity of the stored record."
        )
        + "</p>\n"
        '<dl class="facts">\n'
        f"<dt>{heads[1]}</dt><dd><code>{esc(data.get('match', ''))}</code></dd>\n"
        f"<dt>{heads[2]}</dt><dd>{seats}</dd>\n"
        f"<dt>{heads[3]}</dt><dd>{rules}</dd>\n"
        f"<dt>{heads[4]}</dt><dd>{source_html}</dd>\n"
        "</dl>\n</header>"
    )


def _integrity(data: Mapping[str, Any], w: Words) -> str:
    integrity = data.get("integrity") or {}
    head = esc(integrity.get("head", ""))
    count = integrity.get("events")
    events = (
        w.ngettext("%(num)s event", "%(num)s events", count) % {"num": f"{count:,}"}
        if isinstance(count, int)
        else w.gettext("? events")
    )
    problems = integrity.get("problems") or []
    if integrity.get("intact", not problems):
        if integrity.get("sealed", True):
            state = w.gettext("<strong>Intact.</strong> The stored events form an unbroken chain up to the saved seal.")
        else:
            state = w.gettext("<strong>Intact, but not sealed:</strong> there is no chain to check.")
        box = f'<div class="status ok" id="integrity-status">{state}</div>'
    else:
        at = w.gettext("at position %(position)s:")
        items = _rows(
            f"<li><strong>{esc(p.get('kind', ''))}</strong> {at % {'position': esc(p.get('position', '?'))}} "
            f"{esc(p.get('detail', ''))}</li>"
            for p in problems
        )
        broken = w.ngettext(
            "<strong>Broken:</strong> the stored events are not the history honba recorded (%(num)s problem).",
            "<strong>Broken:</strong> the stored events are not the history honba recorded (%(num)s problems).",
            len(problems),
        ) % {"num": len(problems)}
        box = f'<div class="status bad" id="integrity-status">{broken}\n<ul>{items}</ul></div>'
    title, digest = w.gettext("Integrity"), w.gettext("head digest")
    return (
        f'<section id="integrity">\n<h2>{title}</h2>\n'
        f"{box}\n"
        f'<p>{events}; {digest} <span class="digest">{head}</span></p>\n</section>'
    )


def _summary(data: Mapping[str, Any], w: Words) -> str:
    players = _players(data)
    scores = data.get("final_scores") or {}
    points = data.get("final_points") or {}
    head = "".join(f'<th class="num player">{esc(p)}</th>' for p in players)
    rows = [
        "<tr><th>"
        + w.gettext("score")
        + "</th>"
        + "".join(f'<td class="num">{_number(scores.get(p))}</td>' for p in players)
    ]
    if points:
        rows.append(
            "<tr><th>"
            + w.gettext("final points")
            + "</th>"
            + "".join(f'<td class="num">{_points(points.get(p))}</td>' for p in players)
        )
    title = w.gettext("Scores")
    return (
        f'<section id="scores">\n<h2>{title}</h2>\n'
        f'<table class="final"><thead><tr><th></th>{head}</tr></thead>\n<tbody>\n{_rows(rows)}\n</tbody></table>\n'
        "</section>"
    )


def _chart_section(data: Mapping[str, Any], w: Words) -> str:
    svg = score_chart_svg(data, words=w)
    if not svg:
        return ""
    # A phone shows a chart drawn for its width (the wide one, shrunk to 340 px, has 4 px text).
    narrow = score_chart_svg(data, narrow=True, words=w)
    title = w.gettext("Scores through the match")
    return (
        f'<section id="chart">\n<h2>{title}</h2>\n'
        f'<figure>\n<div class="chart-wide">{svg}</div>\n<div class="chart-narrow">{narrow}</div>\n'
        "<figcaption>"
        + w.gettext("Each player's score after every ledger entry, from the start; corrected entries are shaded.")
        + "</figcaption>\n</figure>\n</section>"
    )


def score_chart_svg(data: Mapping[str, Any], *, narrow: bool = False, words: Words | None = None) -> str:
    """The scores after each ledger entry, one line a player, as an inline ``<svg>`` element
    (``narrow``: drawn for a phone's width, the legend under the chart, every few hands named)."""
    w = words or translations(DEFAULT)
    players = _players(data)
    series = [[_int(v) for v in row] for row in data.get("scores_by_hand") or []]
    labels = [str(label) for label in data.get("hand_labels") or []]
    if not players or not series:
        return ""
    labels = (labels + [""] * len(series))[: len(series)]
    corrected = _corrected_entries(data)
    ledger = data.get("ledger") or []
    shaded = [i + 1 for i, row in enumerate(ledger) if _is_corrected(row, corrected)]
    # matplotlib (about a quarter of a second to load) only where a chart is drawn.
    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch
    from matplotlib.ticker import FuncFormatter

    font = 12 if narrow else 10
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "honba-audit", "font.size": font}):
        figure = Figure(figsize=(4.2, 5.2) if narrow else (11, 4.6), layout="constrained")
        FigureCanvasAgg(figure)
        axes = figure.add_subplot()
        xs = list(range(len(series)))
        handles: list[Any] = []
        names: list[str] = []
        for seat, name in enumerate(players):
            ys = [row[seat] if seat < len(row) else 0 for row in series]
            (line,) = axes.plot(
                xs, ys, marker="o", markersize=4, linewidth=2, color=PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]
            )
            handles.append(line)
            names.append(name)
        for x in shaded:
            axes.axvspan(x - 0.4, x + 0.4, color=CORRECTED_COLOUR, alpha=0.35, linewidth=0)
        if shaded:
            handles.append(Patch(color=CORRECTED_COLOUR, alpha=0.35))
            names.append(w.gettext("corrected entry"))
        if any(v < 0 for row in series for v in row):
            axes.axhline(0, color="#5f6368", linewidth=1, linestyle="--")
        if narrow:
            # At most 6 hands named under a phone's chart, the first and every few after it.
            step = max(1, -(-len(xs) // 6))
            axes.set_xticks(xs[::step])
            axes.set_xticklabels(labels[::step], rotation=45, ha="right")
        else:
            axes.set_xticks(xs)
            axes.set_xticklabels(labels, rotation=45 if len(xs) > 14 else 0, ha="right" if len(xs) > 14 else "center")
        axes.set_xlim(-0.5, len(xs) - 0.5)
        axes.yaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:,.0f}"))
        axes.set_xlabel(w.gettext("hand (the score after it)"))
        axes.set_ylabel(w.gettext("score"))
        axes.grid(True, color="#e3e6ea", linewidth=0.8)
        axes.set_axisbelow(True)
        for side in ("top", "right"):
            axes.spines[side].set_visible(False)
        if narrow:
            legend = figure.legend(handles, names, loc="outside lower center", ncols=2, frameon=False)
        else:
            legend = axes.legend(handles, names, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
        for text in [*legend.get_texts(), *axes.get_xticklabels()]:
            text.set_parse_math(False)  # a name like "$x$" is a name, not a formula
        label = w.gettext("Scores through the match")
        return figure_svg(figure, label + (" " + w.gettext("(narrow)") if narrow else ""))


def figure_svg(figure: Figure, label: str) -> str:
    """A chart as inline SVG with its label for screen readers (the label escaped as data)."""
    buffer = io.StringIO()
    with warnings.catch_warnings():
        # A name in a script the bundled font lacks: the browser draws the <text> with its own fonts.
        warnings.filterwarnings("ignore", message="Glyph .* missing from font")
        figure.savefig(buffer, format="svg", metadata={"Date": None})
    svg = buffer.getvalue()
    start = svg.find("<svg")
    svg = svg[start:] if start >= 0 else svg
    return svg.replace("<svg ", f'<svg role="img" aria-label="{esc(label)}" ', 1).strip()


def _corrected_entries(data: Mapping[str, Any]) -> set[int]:
    """Ledger entries (by number) touched by a correction: the entries they replace, and penalties they add."""
    entries: set[int] = set()
    for c in data.get("corrections") or []:
        if c.get("target") is not None:
            entries.add(_int(c["target"]))
        else:
            entries.add(_int(c.get("entry")))
    return entries


def _is_corrected(row: Mapping[str, Any], corrected: set[int]) -> bool:
    return bool(row.get("corrected")) or (row.get("entry") is not None and _int(row["entry"]) in corrected)


def _payment(p: Mapping[str, Any], w: Words) -> str:
    payer = w.gettext("table") if p.get("payer") is None else p["payer"]
    payee = w.gettext("table") if p.get("payee") is None else p["payee"]
    note = f": {p['note']}" if p.get("note") else ""
    return (
        f"<li>{esc(payer)} &rarr; {esc(payee)} <strong>{_number(p.get('amount'))}</strong> "
        f'<span class="reason">({esc(p.get("reason", ""))}{esc(note)})</span></li>'
    )


def _ledger_section(data: Mapping[str, Any], w: Words) -> str:
    players = _players(data)
    ledger = data.get("ledger") or []
    corrected = _corrected_entries(data)
    by_target = {
        _int(c["target"]) if c.get("target") is not None else _int(c.get("entry")): _int(c.get("entry"))
        for c in data.get("corrections") or []
    }
    label = {
        "entry": w.gettext("entry"),
        "hand": w.gettext("hand"),
        "dealer": w.gettext("dealer"),
        "counters": w.gettext("counters"),
        "deposits": w.gettext("deposits"),
        "result": w.gettext("result"),
        "payments": w.gettext("payments"),
        "change": w.gettext("change / after"),
        "corrected": w.gettext("corrected"),
    }
    passes = w.gettext("deal passes to %(player)s")
    head = (
        f'<tr><th class="num">{label["entry"]}</th><th class="num">#</th><th class="nowrap">{label["hand"]}</th>'
        f'<th>{label["dealer"]}</th><th class="num">{label["counters"]}</th><th class="num">{label["deposits"]}</th>'
        f"<th>{label['result']}</th><th>{label['payments']}</th>"
        + "".join(
            f'<th class="num player">{esc(p)}<br><span class="muted">{label["change"]}</span></th>' for p in players
        )
        + "</tr>"
    )
    rows = []
    for row in ledger:
        entry = row.get("entry")
        is_corrected = _is_corrected(row, corrected)
        attributes = f' id="entry-{_int(entry)}"' if entry is not None else ""
        if is_corrected:
            attributes += ' class="corrected"'
        result = esc(row.get("result", ""))
        if is_corrected and entry is not None:
            link = by_target.get(_int(entry))
            anchor = f' href="#correction-{link}"' if link is not None else ""
            result += f' <a class="badge"{anchor}>{label["corrected"]}</a>'
        for logged in row.get("log_says") or []:
            # What the game log said of the win (yaku, dora, fu, winning tile, calls), as text.
            result += f'<br><span class="logged">{esc(logged)}</span>'
        if row.get("deal_passed_to") is not None:
            result += f'<br><span class="pass">{passes % {"player": esc(row["deal_passed_to"])}}</span>'
        payments = row.get("payments") or []
        payment_html = f'<ul class="payments">{"".join(_payment(p, w) for p in payments)}</ul>' if payments else "-"
        changes = row.get("changes") or {}
        after = row.get("scores_after") or {}
        cells = "".join(
            f'<td class="num" data-label="{esc(p)}">{_signed(changes.get(p))}'
            f'<span class="score">{_number(after.get(p))}</span></td>'
            for p in players
        )
        number = esc(row.get("number", "")) if row.get("kind", "hand") == "hand" else esc(row.get("kind", ""))
        rows.append(
            f"<tr{attributes}>"
            f'<td class="num" data-label="{label["entry"]}">{esc("" if entry is None else entry)}</td>'
            f'<td class="num" data-label="#">{number}</td>'
            f'<td class="nowrap" data-label="{label["hand"]}">{esc(row.get("hand", ""))}</td>'
            f'<td data-label="{label["dealer"]}">{esc(row.get("dealer", ""))}</td>'
            f'<td class="num" data-label="{label["counters"]}">{_number(row.get("counters"))}</td>'
            f'<td class="num" data-label="{label["deposits"]}">{_number(row.get("deposits"))}</td>'
            f'<td class="result" data-label="{label["result"]}">{result}</td>'
            f'<td class="payments" data-label="{label["payments"]}">{payment_html}</td>{cells}</tr>'
        )
    if not rows:
        none_yet = w.gettext("No hands recorded yet.")
        rows.append(f'<tr><td colspan="{8 + len(players)}" class="muted">{none_yet}</td></tr>')
    title = w.gettext("Ledger")
    return (
        f'<section id="ledger">\n<h2>{title}</h2>\n'
        '<p class="muted">'
        + w.gettext(
            "The corrected history, hand by hand: the table before each hand (dealer, counters, "
            "deposits on the table), the result, every payment with its reason, and each player's change and "
            'score after it. Rows marked <span class="badge">corrected</span> follow a correction listed below.'
        )
        + "</p>\n"
        f'<div class="wide"><table class="ledger">\n<thead>{head}</thead>\n'
        f"<tbody>\n{_rows(rows)}\n</tbody>\n</table></div>\n"
        "</section>"
    )


def _corrections_section(data: Mapping[str, Any], w: Words, language: str = DEFAULT) -> str:
    corrections = data.get("corrections") or []
    title = w.gettext("Corrections")
    if not corrections:
        return (
            f'<section id="corrections">\n<h2>{title}</h2>\n<p>'
            + w.gettext("No corrections were made.")
            + "</p>\n</section>"
        )
    label = {
        name: w.gettext(name)
        for name in (
            N_("entry"),
            N_("kind"),
            N_("corrects"),
            N_("original"),
            N_("replacement"),
            N_("by"),
            N_("when"),
            N_("why"),
        )
    }
    rows = []
    for c in corrections:
        target = c.get("target")
        entry = f'<a href="#entry-{_int(target)}">{_int(target)}</a>' if target is not None else "-"
        rows.append(
            f'<tr id="correction-{_int(c.get("entry"))}">'
            f'<td class="num" data-label="{label["entry"]}">{esc(c.get("entry", ""))}</td>'
            f'<td data-label="{label["kind"]}">{esc(c.get("kind", ""))}</td>'
            f'<td class="num" data-label="{label["corrects"]}">{entry}</td>'
            f'<td data-label="{label["original"]}">{esc(c.get("original") or "-")}</td>'
            f'<td data-label="{label["replacement"]}">{esc(c.get("replacement") or "-")}</td>'
            f'<td data-label="{label["by"]}">{esc(c.get("by", ""))}</td>'
            f'<td data-label="{label["when"]}">{esc(when(str(c.get("at", "")), language))}</td>'
            f'<td class="why" data-label="{label["why"]}">{esc(c.get("reason", ""))}</td></tr>'
        )
    heads = "".join(
        f'<th class="num">{label[name]}</th>' if name in ("entry", "corrects") else f"<th>{label[name]}</th>"
        for name in label
    )
    return (
        f'<section id="corrections">\n<h2>{title}</h2>\n'
        '<p class="muted">'
        + w.gettext("Each correction is an event of its own; the original entry stays in the log.")
        + "</p>\n"
        f'<table class="corrections"><thead><tr>{heads}</tr></thead>\n'
        f"<tbody>\n{_rows(rows)}\n</tbody></table>\n</section>"
    )


def _clock_section(data: Mapping[str, Any], w: Words) -> str:
    """The clock's events (time limit, start, time added, time up), where the match had a clock."""
    events = data.get("clock") or []
    if not events:
        return ""
    after, title = w.gettext("after entry %(entry)s:"), w.gettext("Clock")
    items = _rows(f"<li>{after % {'entry': _int(e.get('after_entry'))}} {esc(e.get('text', ''))}</li>" for e in events)
    return f'<section id="clock">\n<h2>{title}</h2>\n<ul>\n{items}\n</ul>\n</section>'


def _finding_items(findings: Sequence[Mapping[str, Any]], w: Words) -> str:
    at = w.gettext("at %(hand)s:")
    return _rows(
        f"<li><strong>{esc(f.get('kind', ''))}</strong> {at % {'hand': esc(f.get('hand', ''))}} "
        f"{esc(f.get('text', ''))}</li>"
        for f in findings
    )


def _findings_section(data: Mapping[str, Any], w: Words) -> str:
    findings = data.get("findings") or []
    invariants = [f for f in findings if f.get("kind") == "invariant"]
    others = [f for f in findings if f.get("kind") != "invariant"]
    if invariants:
        checks = (
            '<div class="status bad"><strong>' + w.gettext("Invariants broken:") + "</strong>"
            f"<ul>{_finding_items(invariants, w)}</ul></div>"
        )
    else:
        checks = (
            '<div class="status ok">'
            + w.gettext(
                "<strong>Invariants hold:</strong> every hand sums to zero apart from deposits, "
                "deposits are conserved, the final scores are the start plus every payment."
            )
            + "</div>"
        )
    inconsistencies = (
        "<h3>" + w.gettext("Inconsistencies of the corrected history") + "</h3>\n"
        f'<ul class="findings">{_finding_items(others, w)}</ul>'
        if others
        else "<p>" + w.gettext("No inconsistencies: every correction leaves the deal where it was played.") + "</p>"
    )
    title = w.gettext("Findings")
    return f'<section id="findings">\n<h2>{title}</h2>\n{checks}\n{inconsistencies}\n</section>'


def _sheet_section(data: Mapping[str, Any], w: Words) -> str:
    sheet = data.get("sheet")
    if not sheet:
        return ""
    kind = esc(sheet.get("kind", ""))
    rows = esc(sheet.get("rows", ""))
    first = sheet.get("first_difference")
    if first is None:
        agrees = w.gettext("<strong>The sheet agrees</strong> with the ledger (%(kind)s, %(rows)s rows).")
        verdict = f'<div class="status ok">{agrees % {"kind": kind, "rows": rows}}</div>'
    else:
        parts = w.gettext(
            "<strong>The sheet (%(kind)s, %(rows)s rows) first parts from the ledger at %(hand)s:</strong>"
        )
        verdict = (
            f'<div class="status bad">{parts % {"kind": kind, "rows": rows, "hand": esc(first.get("hand", ""))}} '
            f"{esc(first.get('text', ''))}</div>"
        )
    differences = sheet.get("differences") or []
    listing = (
        "<h3>" + w.gettext("Every difference") + f'</h3>\n<ul class="findings">{_finding_items(differences, w)}</ul>'
        if differences
        else ""
    )
    title = w.gettext("Score sheet comparison")
    return f'<section id="sheet">\n<h2>{title}</h2>\n{verdict}\n{listing}\n</section>'


def _what_if_section(data: Mapping[str, Any], w: Words) -> str:
    what = data.get("what_if")
    if not what:
        return ""
    players = _players(data)
    other = esc(what.get("rules", ""))
    ours = esc(data.get("rules", ""))
    head = "".join(f'<th class="num player">{esc(p)}</th>' for p in players)
    finals = data.get("final_scores") or {}
    theirs = what.get("final_scores") or {}
    under = said(w, "under %(rules)s", rules=what.get("rules", ""))
    scores_under = said(w, "final scores under %(rules)s", rules=data.get("rules", ""))
    points_under = said(w, "final points under %(rules)s", rules=data.get("rules", ""))
    difference = w.gettext("difference")
    summary = [
        f"<tr><th>{scores_under}</th>"
        + "".join(f'<td class="num">{_number(finals.get(p))}</td>' for p in players)
        + "</tr>",
        f"<tr><th>{under}</th>" + "".join(f'<td class="num">{_number(theirs.get(p))}</td>' for p in players) + "</tr>",
        f"<tr><th>{difference}</th>"
        + "".join(f'<td class="num">{_signed(_int(theirs.get(p)) - _int(finals.get(p)))}</td>' for p in players)
        + "</tr>",
    ]
    our_points = data.get("final_points") or {}
    their_points = what.get("final_points") or {}
    if our_points and their_points:
        summary += [
            f"<tr><th>{points_under}</th>"
            + "".join(f'<td class="num">{_points(our_points.get(p))}</td>' for p in players)
            + "</tr>",
            f"<tr><th>{under}</th>"
            + "".join(f'<td class="num">{_points(their_points.get(p))}</td>' for p in players)
            + "</tr>",
        ]
    changed = [str(h) for h in what.get("changed_hands") or []]
    changed_text = ", ".join(esc(h) for h in changed) if changed else w.gettext("none")
    notes = what.get("notes") or []
    notes_html = f'<ul class="findings">{_finding_items(notes, w)}</ul>' if notes else ""
    per_hand = []
    for row, alt in zip(data.get("ledger") or [], what.get("ledger") or [], strict=False):
        a = row.get("changes") or {}
        b = alt.get("changes") or {}
        differs = any(_int(a.get(p)) != _int(b.get(p)) for p in players)
        cells = "".join(
            f'<td class="num">{_signed(a.get(p))}'
            + (f" &rarr; {_signed(b.get(p))}" if _int(a.get(p)) != _int(b.get(p)) else "")
            + f'<span class="score">{_number((alt.get("scores_after") or {}).get(p))}</span></td>'
            for p in players
        )
        mark = ' class="changed"' if differs else ""
        badge = ' <span class="badge changed">' + w.gettext("changes") + "</span>" if differs else ""
        per_hand.append(
            f"<tr{mark}><td>{esc(row.get('hand', ''))}</td><td>{esc(alt.get('result', ''))}{badge}</td>{cells}</tr>"
        )
    explained = w.gettext(
        "Each player's change under %(ours)s (&rarr; under %(other)s where it differs), and the "
        "score after the hand under %(other)s. The hands stay as they were played."
    ) % {"ours": ours, "other": other}
    title = w.gettext("What if: %(ours)s against %(other)s") % {"ours": ours, "other": other}
    changed_hands, by_hand = w.gettext("Hands whose payments change: %(hands)s"), w.gettext("Hand by hand")
    hand, result = w.gettext("hand"), w.gettext("result")
    return (
        f'<section id="what-if">\n<h2>{title}</h2>\n'
        f'<table class="what-if-final"><thead><tr><th></th>{head}</tr></thead>\n'
        f"<tbody>\n{_rows(summary)}\n</tbody></table>\n"
        f"<p>{changed_hands % {'hands': changed_text}}</p>\n{notes_html}\n"
        f"<h3>{by_hand}</h3>\n"
        f'<p class="muted">{explained}</p>\n'
        f'<table class="what-if"><thead><tr><th>{hand}</th><th>{result}</th>'
        f"{head}</tr></thead>\n"
        f"<tbody>\n{_rows(per_hand)}\n</tbody></table>\n</section>"
    )


def render_standings_html(
    data: Mapping[str, Any],
    results: Mapping[str, Any] | None = None,
    needs: Mapping[str, Any] | None = None,
    after: int | None = None,
    language: str = DEFAULT,
) -> str:
    """Tournament standings (``replay.service.tournaments.standings.standings_data``; a staged event's stages
    and teams, ``results_data``; what each player needs, ``needs_data``) as a page to publish: the
    web's standings report (``templates/standings_section.html``) on a page of its own, with a chart
    of each player's cumulative points by session; in ``language`` (``replay.html.words``)."""
    w = translations(language)
    return render(
        "standings_page.html",
        language,
        name=str(data.get("tournament", "")),
        after=after,
        data=data,
        results=results,
        needs_html=needs_section({"needs": needs}, w) if needs else "",
        chart=standings_chart_svg(data, w),
        chart_note=standings_chart_note(data, w),
        css=CSS + REPORT_CSS,
    )


# Line styles, then markers, vary after the colours: with 16 players or more no two lines look alike.
LINE_STYLES = ("-", "--", ":")
MARKERS = ("o", "s", "^", "D")


def line_style(index: int) -> tuple[str, str, str]:
    """The colour (Okabe and Ito's, safe for colour blindness), line style and marker of the
    ``index``-th player's line: no two alike for the first 72 players."""
    colours = len(PLAYER_COLOURS)
    return (
        PLAYER_COLOURS[index % colours],
        LINE_STYLES[index // colours % len(LINE_STYLES)],
        MARKERS[index // (colours * len(LINE_STYLES)) % len(MARKERS)],
    )


def spread(values: Sequence[float], gap: float) -> list[float]:
    """Positions for labels wanted at ``values`` (rising), at least ``gap`` apart, each group of
    labels that would touch centred on where its members want to be."""
    groups: list[list[float]] = []  # each: the wanted values of its members
    for value in values:
        groups.append([value])
        while len(groups) > 1:
            below, above = groups[-2], groups[-1]
            if _group_top(below, gap) + gap <= _group_bottom(above, gap):
                break
            groups[-2:] = [below + above]
    return [_group_bottom(group, gap) + i * gap for group in groups for i in range(len(group))]


def _group_bottom(group: Sequence[float], gap: float) -> float:
    return sum(group) / len(group) - gap * (len(group) - 1) / 2


def _group_top(group: Sequence[float], gap: float) -> float:
    return _group_bottom(group, gap) + gap * (len(group) - 1)


def _label_line_ends(axes: Any, ends: list[tuple[float, str, str, str]], last: float) -> None:
    """Each line's player named at its end, in the line's colour (no legend to match colours
    against), the names moved apart just enough not to overlap; each name's SVG group is its
    line's id and ``-name`` (the live page picks a line out by either)."""
    if not ends:
        return
    values = [y for y, _name, _colour, _gid in ends]
    low, high = min([*values, 0.0]), max([*values, 0.0])
    gap = max(high - low, 1.0) * 0.9 / max(len(ends), 8) * 1.2
    order = sorted(ends)
    placed = spread([y for y, _name, _colour, _gid in order], gap)
    for (y, name, colour, gid), at in zip(order, placed, strict=True):
        text = axes.annotate(
            name,
            xy=(last, y),
            xytext=(last + 0.08, at),
            textcoords="data",
            color=colour,
            fontsize=9,
            va="center",
            annotation_clip=False,
        )
        # A name is text: never read as a formula ($x$), never dropped for starting with "_".
        text.set_parse_math(False)
        text.set_gid(f"{gid}-name")
    axes.set_xlim(-0.1, last + 0.6)


def _condition(c: Mapping[str, Any], w: Words) -> str:
    rival, place = c.get("rival"), _int(c.get("rival_place"))
    if c.get("relation") == "behind":
        return said(w, "%(rival)s (if %(place)s): behind you whatever the scores", rival=rival, place=place)
    if c.get("relation") == "ahead":
        return said(w, "%(rival)s (if %(place)s): ahead of you whatever the scores", rival=rival, place=place)
    if c.get("rival_place"):
        margin = _int(c.get("score_margin"))
        points = format(abs(margin), ",")
        wording = (
            said(w, "finish more than %(points)s points above", points=points)
            if margin >= 0
            else said(w, "finish at most %(points)s below", points=points)
        )
        return said(w, "%(rival)s (if %(place)s):", rival=rival, place=place) + " " + wording
    gap = format(float(c.get("points_margin") or 0), "+.1f")
    return said(w, "%(rival)s (another table): more than %(points)s points more", rival=rival, points=gap)


# What a place may be for a player, in the order they are said.
STATUSES = (N_("certain"), N_("tied"), N_("possible"), N_("impossible"))


def _statuses(places: Sequence[Mapping[str, Any]], w: Words) -> str:
    """The places a player may take, by what they mean: "place 1 certain; 2 possible; 3, 4 impossible"."""
    by: dict[str, list[str]] = {}
    for place in places:
        by.setdefault(str(place.get("status")), []).append(str(_int(place.get("place"))))
    parts = [", ".join(by[s]) + " " + w.gettext(s) for s in STATUSES if s in by]
    notes = sorted({str(p.get("note")) for p in places if p.get("note")})
    parts += [esc(n) for n in notes]
    return (w.gettext("place") + " " if len(places) else "") + "; ".join(parts)


def needs_section(data: Mapping[str, Any], words: Words | None = None) -> str:
    """What each player needs (``replay.service.director.needs.needs_data`` under ``needs``), when given: a
    line a player (the places that do it), opened for the margins and, at a table in progress, the
    least hand that does it now; in the language of ``words`` (English when none)."""
    w = words or translations(DEFAULT)
    needs = data.get("needs")
    if not needs:
        return ""
    hands: dict[str, list[str]] = {}
    for h in needs.get("hands") or []:
        way = (
            w.gettext("self-drawn")
            if h.get("discarder") is None
            else said(w, "on %(player)s's discard", player=h.get("discarder"))
        )
        value = esc(h.get("value")) if h.get("value") else w.gettext("no hand does it")
        hands.setdefault(str(h.get("player")), []).append(f"<li>{way}: {value}</li>")
    items = []
    for player in needs.get("players") or []:
        places = []
        for place in player.get("places") or []:
            if place.get("status") != "possible":
                continue
            shown = [c for c in place.get("conditions") or [] if c.get("rival_place") and c.get("relation") == "margin"]
            conditions = "<ul>" + "".join(f"<li>{_condition(c, w)}</li>" for c in shown) + "</ul>" if shown else ""
            beat = said(
                w,
                "place %(place)s: beat at least %(count)s of those who can pass",
                place=_int(place.get("place")),
                count=_int(place.get("beat_at_least")),
            )
            places.append(f"<li>{beat}{conditions}</li>")
        now = hands.get(str(player.get("player")), [])
        least = w.gettext("At the table now, the least hand that does it:")
        body = (f"<ul>{''.join(places)}</ul>" if places else "") + (
            f"<p>{least}</p><ul>{''.join(now)}</ul>" if now else ""
        )
        before = said(
            w,
            "(before it: rank %(rank)s, %(points)s; table %(table)s)",
            rank="—" if player.get("rank") is None else player.get("rank"),
            points=_points(player.get("points")),
            table=_int(player.get("table")),
        )
        summary = (
            f'<span class="who">{esc(player.get("player"))}</span> '
            f'<span class="muted">{before}</span>: {_statuses(player.get("places") or [], w)}'
        )
        items.append(
            f'<details class="need"><summary>{summary}</summary>{body}</details>'
            if body
            else f'<p class="need">{summary}</p>'
        )
    title = said(
        w,
        "What each player needs (top %(top)s after session %(session)s)",
        top=_int(needs.get("top")),
        session=_int(needs.get("session")),
    )
    return f'<section id="needs"><h2>{title}</h2>\n{"".join(items)}</section>\n'


# The chart names at most this many lines, the best ranked players' (more names stack into a chart
# many phone screens tall); the others are drawn in grey, unnamed. Every player is in the table.
NAMED_LINES = 20
UNNAMED_COLOUR = "#c4c8ce"


def _charted(data: Mapping[str, Any]) -> list[tuple[int, str]]:
    """The players the chart draws, each with the index of its row (the line's id, by which the
    live page picks it out from the table): every player but those without a finished match
    (their line would only lie on 0)."""
    rows: Sequence[Mapping[str, Any]] = data.get("rows") or []
    return [(i, str(row.get("player"))) for i, row in enumerate(rows) if not ("matches" in row and not row["matches"])]


def standings_chart_note(data: Mapping[str, Any], words: Words | None = None) -> str:
    """What the standings chart leaves out or leaves unnamed, in words ("" when it names everyone;
    in the language of ``words``, English when none)."""
    w = words or translations(DEFAULT)
    rows = data.get("rows") or []
    drawn = len(_charted(data))
    unplayed = len(rows) - drawn
    parts = []
    if drawn > NAMED_LINES:
        parts.append(
            w.gettext("named: the top %(named)s of %(drawn)s players with a finished match, the others in grey")
            % {"named": NAMED_LINES, "drawn": drawn}
        )
    if unplayed:
        parts.append(
            w.ngettext(
                "%(num)s player without a finished match not drawn",
                "%(num)s players without a finished match not drawn",
                unplayed,
            )
            % {"num": unplayed}
        )
    if not parts:
        return ""
    return w.gettext("Lines %(parts)s (every player is in the table).") % {"parts": "; ".join(parts)}


# The standings page drew its chart at every load (matplotlib: a tenth of a second of CPU or more),
# however many phones opened it between two results. A chart depends on the standings' data and the
# words alone: the last few drawn are kept, keyed by the words (held, so that no other catalogue
# takes their place) and the data's repr (equal for equal plain data; anything else only misses).
_CHARTS: dict[tuple[Words, str], str] = {}
_CHARTS_KEPT = 32
_CHARTS_LOCK = threading.Lock()


def standings_chart_svg(data: Mapping[str, Any], words: Words | None = None) -> str:
    """Cumulative points by session, one line a player who has finished a match (the best ranked
    ``NAMED_LINES`` named at its end, the others grey), as an inline ``<svg>`` element."""
    w = words or translations(DEFAULT)
    key = (w, repr(data))
    with _CHARTS_LOCK:
        held = _CHARTS.get(key)
    if held is None:
        held = _standings_chart_svg(data, w)
        with _CHARTS_LOCK:
            _CHARTS[key] = held
            while len(_CHARTS) > _CHARTS_KEPT:
                del _CHARTS[next(iter(_CHARTS))]
    return held


def _standings_chart_svg(data: Mapping[str, Any], w: Words) -> str:
    by_session: Mapping[str, Mapping[str, Any]] = data.get("by_session") or {}
    sessions = sorted(by_session, key=lambda s: int(s))
    players = _charted(data)
    # Before any match has ended there is nothing to chart: no flat lines over an empty axis.
    if not sessions or not players or data.get("finished") == 0:
        return ""
    # matplotlib (about a quarter of a second to load) only where a chart is drawn.
    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    named = min(len(players), NAMED_LINES)
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "honba-standings", "font.size": 10}):
        # Taller with more names, so that each line's name at its end has room of its own; narrow
        # enough that its names stay readable where a phone shows it at its own size.
        figure = Figure(figsize=(9, max(4.4, 0.3 * named)), layout="constrained")
        FigureCanvasAgg(figure)
        axes = figure.add_subplot()
        xs = list(range(len(sessions) + 1))
        ends: list[tuple[float, str, str, str]] = []
        # The unnamed lines first, thin and grey beneath the named ones.
        for place, (index, player) in reversed(list(enumerate(players))):
            ys = [0.0] + [float(by_session[s].get(player, 0.0)) for s in sessions]
            if place >= NAMED_LINES:
                (line,) = axes.plot(xs, ys, linewidth=1, color=UNNAMED_COLOUR, zorder=1)
            else:
                colour, style, marker = line_style(index)
                (line,) = axes.plot(
                    xs, ys, marker=marker, markersize=4, linewidth=2, color=colour, linestyle=style, zorder=2
                )
                ends.append((ys[-1], player, colour, f"player-{index}"))
            # Each line's SVG group named by its player's row: the live page picks a line out by it.
            line.set_gid(f"player-{index}")
        _label_line_ends(axes, ends, xs[-1])
        axes.set_xticks(xs)
        session = w.gettext("session %(session)s")
        axes.set_xticklabels([w.gettext("start"), *(session % {"session": s} for s in sessions)])
        axes.axhline(0, color="#5f6368", linewidth=1, linestyle="--")
        axes.set_ylabel(w.gettext("placement points"))
        axes.grid(True, color="#e3e6ea", linewidth=0.8)
        axes.set_axisbelow(True)
        for side in ("top", "right"):
            axes.spines[side].set_visible(False)
        return figure_svg(figure, w.gettext("Points by session"))
