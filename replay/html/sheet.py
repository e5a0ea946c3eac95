"""The printed score sheets of a session (``honba tournament sheet``, the director's "Print the score sheets").

One self-contained page (CSS inline, QR codes as inline SVG, nothing loaded), one sheet a table,
each on a page of its own when printed (A4 or Letter: ``@page``'s size, and ``break-after``
between tables). Its columns are those ``honba audit --against`` reads (``hand``, then each
player as the match names them), so a sheet filled in at the table is typed back as that CSV.
A pure function: the plain data of ``replay.service.tournaments.sheets.sheet_data`` in, text out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from replay.html.pages import esc, said
from replay.html.qr import qr_svg
from replay.html.words import DEFAULT, Words, translations

PAPERS = {"a4": "A4", "letter": "letter"}
# The height the empty rows may take on one page (Letter's 279 mm, less the margins, the header with
# its QR code, the start and signature rows and the line on typing it back).
ROWS_MM = 160.0

CSS = """
:root { color-scheme: light; --ink: #111; --line: #777; --muted: #555; }
* { box-sizing: border-box; }
body { font: 14px/1.35 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK JP", sans-serif;
       color: var(--ink); margin: 0 auto; padding: 12px; max-width: 190mm; background: #fff; }
section.sheet { padding: 0 0 24px; }
section.sheet + section.sheet { border-top: 2px dashed var(--line); padding-top: 16px; }
header { display: flex; gap: 12px; align-items: flex-start; justify-content: space-between; }
h1 { font-size: 20px; margin: 0 0 4px; }
p { margin: 2px 0; }
.muted { color: var(--muted); font-size: 12px; }
.qr { flex: 0 0 auto; width: 30mm; text-align: center; margin: 0; }
.qr svg { width: 30mm; height: 30mm; display: block; }
.qr figcaption { font-size: 9px; word-break: break-all; }
table { border-collapse: collapse; width: 100%; table-layout: fixed; margin: 8px 0; }
th, td { border: 1px solid var(--line); padding: 2px 4px; overflow-wrap: anywhere; }
thead th { font-size: 13px; text-align: center; }
th.hand, td.hand { width: 16%; }
th .wind { display: block; font-weight: normal; font-size: 11px; color: var(--muted); }
tr.start td { text-align: right; color: var(--muted); font-size: 12px; height: auto; }
tr.signed td { height: 12mm; vertical-align: bottom; font-size: 10px; color: var(--muted); }
@page { size: PAPER; margin: 10mm; }
@media print {
  body { padding: 0; max-width: none; }
  section.sheet { break-after: page; page-break-after: always; break-inside: avoid; padding: 0; }
  section.sheet:last-child { break-after: auto; page-break-after: auto; }
  section.sheet + section.sheet { border-top: none; padding-top: 0; }
  .screen-only { display: none; }
}
"""


def render_sheet_html(
    data: Mapping[str, Any], links: Mapping[int, str], paper: str = "a4", language: str = DEFAULT
) -> str:
    """The sheets of a session (``sheet_data``); ``links`` the address each table's QR code
    holds (its table link from the director's page, or its public page), by table number; in
    ``language`` (``replay.html.words``). The columns' heads that are typed back (``hand``, the
    players' names) stay as ``honba audit --against`` reads them, whatever the language."""
    w = translations(language)
    size = PAPERS.get(paper)
    if size is None:
        raise ValueError(f"paper {paper!r} is not one of {', '.join(PAPERS)}")
    name, session = str(data["tournament"]), int(data["session"])
    sheets = "\n".join(_sheet(name, session, table, links.get(int(table["table"])), w) for table in data["tables"])
    title = said(w, "Score sheets: session %(session)s of %(name)s", session=session, name=name)
    explained = said(
        w,
        "One page a table when printed (%(paper)s). Write each player's score after every hand (and every "
        "penalty) on a row of its own, the hand named as honba names it (E1-0: round wind, hand, counters).",
        paper=size,
    )
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{esc(language)}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
        f"<title>{title} - honba</title>\n"
        f"<style>{CSS.replace('PAPER', size)}</style>\n</head>\n<body>\n"
        f'<p class="screen-only muted">{explained}</p>\n'
        f"{sheets}\n</body>\n</html>\n"
    )


def _sheet(name: str, session: int, table: Mapping[str, Any], link: str | None, w: Words) -> str:
    seats = list(table["seats"])
    number, key = int(table["table"]), table.get("match")
    head = "".join(
        f'<th>{esc(seat["player"])}<span class="wind">{esc(w.gettext(seat["wind"]))}</span></th>' for seat in seats
    )
    starts = "".join(f"<td>{'' if seat['start'] is None else format(int(seat['start']), ',')}</td>" for seat in seats)
    # Rows share the height left on a Letter page (shorter than A4) with the header and QR code.
    count = int(table["rows"])
    height = f"{min(7.4, ROWS_MM / max(count, 1)):.1f}mm"
    empty = f'<tr class="hand-row" style="height: {height}"><td class="hand"></td>' + "<td></td>" * len(seats) + "</tr>"
    rows = "\n".join(empty for _ in range(count))
    signed = "".join(f"<td>{esc(seat['player'])}</td>" for seat in seats)
    qr_label = w.gettext("QR code of the table page")
    qr = f'<figure class="qr">{qr_svg(link, qr_label)}<figcaption>{esc(link)}</figcaption></figure>' if link else ""
    rules = esc(table["rules"]) if table.get("rules") else w.gettext("(no match started)")
    header_line = ",".join(str(c) for c in table["columns"])
    # (Every text of the catalogue is said outside an f-string: Babel's extractor reads no f-string.)
    title = said(w, "%(name)s: session %(session)s, table %(table)s", name=name, session=session, table=number)
    said_rules, said_match = w.gettext("Rules:"), w.gettext("Match:")
    said_start, said_signed = w.gettext("start"), w.gettext("signed")
    # The column is typed back as "hand" in every language; a language of its own says it beneath.
    hand = w.gettext("hand")
    hand_said = f'<span class="wind">{esc(hand)}</span>' if hand != "hand" else ""
    typed = w.gettext(
        "Typed back: a CSV with the header %(header)s, one row a hand (leave out the start and signed rows), "
        "then %(command)s."
    ) % {
        "header": f"<code>{esc(header_line)}</code>",
        "command": f"<code>honba audit {esc(key or 'KEY')} --against FILE --as-played</code>",
    }
    return f"""<section class="sheet" id="sheet-{number}">
<header><div>
<h1>{title}</h1>
<p>{said_rules} <strong class="rules">{rules}</strong></p>
<p>{said_match} <code>{esc(key or "-")}</code></p>
</div>{qr}</header>
<table class="score-sheet">
<thead><tr><th class="hand">hand{hand_said}</th>{head}</tr></thead>
<tbody>
<tr class="start"><td class="hand">{said_start}</td>{starts}</tr>
{rows}
<tr class="signed"><td class="hand">{said_signed}</td>{signed}</tr>
</tbody>
</table>
<p class="muted">{typed}</p>
</section>"""
