"""QR codes as inline SVG: the table links on the director's pages and the printed score sheets."""

from __future__ import annotations

from replay.html.pages import esc


def qr_svg(text: str, label: str = "QR code of the table link") -> str:
    """A QR code of ``text`` as an inline ``<svg>`` (qrcode's SVG path image: no Pillow needed)."""
    import qrcode
    import qrcode.image.svg

    image = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathImage, box_size=8)
    svg: str = image.to_string(encoding="unicode")
    return svg.replace("<svg ", f'<svg role="img" aria-label="{esc(label)}" ', 1)
