"""QR codes as inline SVG: the table links on the director's pages and the printed score sheets."""

from __future__ import annotations

from functools import lru_cache

from replay.html.pages import esc


# The director's session page draws a code for each table's link at every load (a director reloads
# it all through a session to see the tables' states): about 12 ms of CPU a code, a quarter of a
# second a load of 20 tables. A code depends on its text alone; the last few hundred drawn are kept
# (a link holds a table's token, which this process issued and the page shows; kept in memory only).
@lru_cache(maxsize=512)
def qr_svg(text: str, label: str = "QR code of the table link") -> str:
    """A QR code of ``text`` as an inline ``<svg>`` (qrcode's SVG path image: no Pillow needed)."""
    import qrcode
    import qrcode.image.svg

    image = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathImage, box_size=8)
    svg: str = image.to_string(encoding="unicode")
    return svg.replace("<svg ", f'<svg role="img" aria-label="{esc(label)}" ', 1)
