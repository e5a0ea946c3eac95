"""The table link's QR code (replay/html/qr.py): the modules it draws are exactly the symbol qrcode
makes for the link (error correction M, the four-module quiet zone), and it is small enough for a
session page of 40 tables on a venue's network (qrcode's own SVG image drew about 20 KB a code)."""

from __future__ import annotations

import re

import qrcode

from replay.html.qr import qr_svg

LINK = "http://192.168.1.20:8000/matches/Spring%20Open-s1-t37?token=3f9a0c2b7d41.Xq7rB0mV4nT2kL9sD1fH6jW8pZ3cA5eG"


def drawn(svg: str) -> set[tuple[int, int]]:
    """The modules an SVG of ``qr_svg`` strokes: each ``M x y.5 h w`` or ``m dx 0 h w`` a run of a row."""
    (path,) = re.findall(r'<path d="([^"]*)"', svg)
    dark: set[tuple[int, int]] = set()
    x = y = 0
    for move, dx, dy, run in re.findall(r"([Mm])(\d+) (\d+(?:\.5)?)h(\d+)", path):
        if move == "M":
            x, y = int(dx), int(float(dy))
        else:
            assert dy == "0", path
            x += int(dx)
        dark |= {(x + i, y) for i in range(int(run))}
        x += int(run)
    return dark


def test_the_code_draws_the_symbol_of_the_link_module_for_module() -> None:
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=4)
    code.add_data(LINK)
    code.make(fit=True)
    symbol = {(x, y) for y, row in enumerate(code.get_matrix()) for x, module in enumerate(row) if module}
    svg = qr_svg(LINK)
    side = len(code.get_matrix())
    assert f'viewBox="0 0 {side} {side}"' in svg
    assert drawn(svg) == symbol
    assert svg.startswith('<svg role="img" aria-label="QR code of the table link" ')


def test_a_table_links_code_is_a_seventh_of_what_each_module_drawn_alone_took() -> None:
    assert len(qr_svg(LINK)) < 4_000  # qrcode's SvgPathImage: 20,251 characters for a link this long
    assert 'id="' not in qr_svg(LINK)  # 40 codes on one page would repeat an element id 40 times


def test_the_label_is_escaped() -> None:
    assert 'aria-label="Ann &amp; &quot;Ben&quot;"' in qr_svg(LINK, 'Ann & "Ben"')
