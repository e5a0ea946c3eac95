"""QR codes as inline SVG: the table links on the director's pages and the printed score sheets."""

from __future__ import annotations

from functools import lru_cache

from replay.html.pages import esc

# The side of a module, in mm, where the SVG is drawn at its own size (the printed score sheet sets its
# own): qrcode's SVG image drew 0.8 mm (box_size 8 in its tenths of a mm).
MODULE_MM = 0.8


# The director's session page draws a code for each table's link at every load (a director reloads
# it all through a session to see the tables' states): about 10 ms of CPU a code, a third of a second
# a load of 40 tables, the same codes each time. A code depends on its text alone; the last few hundred
# drawn are kept (a link holds a table's token, which this process issued and the page shows; kept in
# memory only).
@lru_cache(maxsize=512)
def qr_svg(text: str, label: str = "QR code of the table link") -> str:
    """A QR code of ``text`` as an inline ``<svg>``: qrcode's symbol (error correction M, the
    four-module quiet zone), each row's runs of dark modules drawn as one stroked line each.

    qrcode's own SVG image drew every dark module as a square of its own: about 20 KB a table link,
    some 800 KB on the session page of a 40-table event, which a director's phone loads on the venue's
    network at every reload; drawn by runs it is about 3 KB, the same modules."""
    import qrcode

    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=4)
    code.add_data(text)
    code.make(fit=True)
    rows: list[list[bool]] = code.get_matrix()
    side = len(rows)
    lines = []
    for y, row in enumerate(rows):
        x, at = 0, None  # ``at``: where the pen stands on this row (None: not yet on it)
        while x < side:
            if not row[x]:
                x += 1
                continue
            start = x
            while x < side and row[x]:
                x += 1
            # The stroke is a module tall, centred on the row's middle line.
            lines.append(f"M{start} {y}.5h{x - start}" if at is None else f"m{start - at} 0h{x - start}")
            at = x
    mm = f"{side * MODULE_MM:g}mm"
    return (
        f'<svg role="img" aria-label="{esc(label)}" width="{mm}" height="{mm}" viewBox="0 0 {side} {side}"'
        f' xmlns="http://www.w3.org/2000/svg" shape-rendering="crispEdges">'
        f'<path d="{"".join(lines)}" stroke="#000" stroke-width="1" fill="none"/></svg>'
    )
