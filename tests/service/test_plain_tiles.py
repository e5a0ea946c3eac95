"""An import reads a plain-shaped mjlog's tiles from its text, as the tree's walk collects them (issue 36).

``replay.formats.tenhou_xml_tiles.plain_hand_tiles`` reads every hand's fourteen arrays (dora and ura
indicators, hands dealt, draws and discards with tsumogiri and riichi, every call string) from the
text the plain reader reads (``read_plain_mjlog``), without the XML tree; ``TileCollector`` collects
them from the tree for a log outside that shape. Every corpus mjlog, a log written for each layout
and value the text path passes to the tree, and logs made up by hypothesis give the same games and
tiles, or the same refusal, both ways. A value no tile can be read from is refused on one line naming
the file, the hand and the tag (it was a ``ValueError``'s traceback).
"""

from __future__ import annotations

import subprocess
import sys

import attrs
import pytest
from conftest import CORPUS
from hypothesis import given
from hypothesis import strategies as st

import replay.formats.tenhou_xml as tenhou_xml
from replay.formats.detect import read_games
from replay.formats.logmodel import LogError, LoggedGame
from replay.formats.source import read_source
from replay.formats.tenhou_xml_tiles import (
    REDS,
    TileCollector,
    _hand_start,
    call_string,
    code,
    plain_hand_tiles,
    plain_tags,
    read_with_tiles,
)

needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")


def through_tree(data: bytes, file: str) -> list[LoggedGame] | str:
    """The games with their tiles as the tree's walk collects them (the way of a log outside the
    plain shape), or the refusal."""
    collector = TileCollector(file)
    try:
        games = tenhou_xml.read_tenhou_xml(data, file=file, collect=collector.feed)
    except LogError as exc:
        return str(exc)
    tiles = collector.hands
    return [
        attrs.evolve(game, hands=tuple(attrs.evolve(h, tiles=tuple(t)) for h, t in zip(game.hands, tiles, strict=True)))
        if len(tiles) == len(game.hands)
        else game
        for game in games
    ]


def as_imported(data: bytes, file: str) -> list[LoggedGame] | str:
    try:
        return read_with_tiles(data, file=file)
    except LogError as exc:
        return str(exc)


@needs_corpus
def test_every_corpus_mjlog_gives_the_tiles_the_tree_gives_without_the_tree(xml_parses: list[str]) -> None:
    files = sorted(p for p in CORPUS.rglob("*") if p.is_file() and p.suffix in (".mjlog", ".xml", ".xml_"))
    assert len(files) > 700
    expected = {path: through_tree(read_source(path), str(path)) for path in files}
    assert all(not isinstance(games, str) for games in expected.values())
    assert len(xml_parses) == len(files)  # the tree's walk parses each
    xml_parses.clear()
    # Each hand's arrays, the tsumogiri and riichi marks, the calls and the indicators alike; compared by
    # ``repr`` (what equality leaves out too). No log of the corpus is parsed into a tree for it.
    for path in files:
        data = read_source(path)
        assert tenhou_xml.read_plain_mjlog(data, file=str(path)) is not None, path
        tiles = plain_hand_tiles(data.decode("utf-8-sig"))
        assert tiles is not None and tiles == [list(hand.tiles or ()) for hand in expected[path][0].hands], path
        assert repr(as_imported(data, str(path))) == repr(expected[path]), path
        assert xml_parses == [], path


def through_pieces(text: str, file: str) -> LoggedGame | None:
    """The game as an import reads a plain-shaped text, from the tags the tiles' walk matched
    (``read_plain_pieces``), or None where it leaves the text to the other readers."""
    found = plain_tags(text)
    if found is None:
        return None
    tiles, tags, played = found
    return tenhou_xml.read_plain_pieces(tags, played, file=file, tiles=tiles)


@needs_corpus
def test_every_corpus_mjlog_reads_from_its_pieces_as_from_its_text() -> None:
    # The import's reader of the tags the tiles' walk matched (eleventh round) gives every corpus log's
    # game as the reader of the whole text gives it, tiles and all.
    files = sorted(p for p in CORPUS.rglob("*") if p.is_file() and p.suffix in (".mjlog", ".xml", ".xml_"))
    assert len(files) > 700
    for path in files:
        text = read_source(path).decode("utf-8-sig")
        tiles = plain_hand_tiles(text)
        game = through_pieces(text, str(path))
        assert game is not None, path
        assert repr(game) == repr(tenhou_xml.read_plain_mjlog(text, file=str(path), tiles=tiles)), path


HEADER = '<mjloggm ver="2.3"><GO type="{kind}" lobby="0"/><UN n0="A" n1="B" n2="C" n3="D"/><TAIKYOKU oya="0"/>'
# Two hands, the first with a riichi declared on the tile just drawn (``r60``), a tile drawn and
# discarded (60), a draw whose tile is hidden, the four calls (Tenhou's meld codes from the corpus: a
# pon of the red dragon from across, a chi of 6-7-8 souzu, an open kan of east from the right, a closed
# kan of the green dragon, the red dragon's pon made a kan), two more indicators, a red five, and a win
# with its ura indicators; the second ends in a draw.
HANDS = (
    '<INIT seed="0,0,0,1,2,33" ten="250,250,250,250" oya="0" hai0="1,2,3,4,16,100,101,102,120,121,122,130,131" '
    'hai1="8,9,10,11,40,41,42,60,61,62,70,71,72" hai2="12,13,14,20,21,22,80,81,82,90,91,92,110" '
    'hai3="17,18,19,24,25,26,84,85,86,94,95,96,111"/>'
    '<T50/><REACH who="0" step="1"/><D50/><REACH who="0" ten="240,250,250,250" step="2"/><U/><E44/>'
    '<N who="2" m="51818" /><F110/><W52/><G52/><T56/><D56/><U58/><E58/><V64/><F64/>'
    '<N who="3" m="58655" /><G111/><T57/><D57/><N who="1" m="28161" /><DORA hai="33" /><U63/><E63/>'
    '<V97/><N who="2" m="33024" /><DORA hai="5" /><V105/><F105/><W107/><N who="3" m="50705" /><W108/>'
    '<AGARI ba="0,1" hai="1,2,3,4,16,100,101,102,120,121,122,130,131,5" machi="5" ten="30,1500,0" '
    'yaku="1,1,0,1" doraHai="33,5" doraHaiUra="34,6" who="3" fromWho="3" sc="240,-5,250,-5,250,-5,250,25" />'
    '<INIT seed="1,0,0,3,3,79" ten="235,245,245,275" oya="1" hai0="0,5,6" hai1="7" hai2="15" hai3="23"/>'
    "<T112/><D112/><U113/><E113/>"
    '<RYUUKYOKU ba="0,0" sc="235,0,245,0,245,0,275,0" owari="235,-16.5,245,-5.5,245,-5.5,275,27.5" />'
    "</mjloggm>"
)
GAME = HEADER.format(kind=169) + HANDS


def test_a_log_written_with_every_kind_of_tile_tag_reads_alike_both_ways(xml_parses: list[str]) -> None:
    data = GAME.encode()
    expected = through_tree(data, "game.mjlog")
    assert not isinstance(expected, str), expected
    first, second = ([list(a) for a in hand.tiles or ()] for hand in expected[0].hands)
    # Tenhou's arrays, worked out by hand from the tiles' numbers (tile // 4 is the kind; 52 a red five)
    # and the meld codes: the indicators, then per seat the hand dealt, the draws, the discards.
    assert first[0:2] == [[19, 19, 12], [19, 12]]
    assert first[3:5] == [[24, 26, 26], ["r60", 60, 60]]
    assert first[6:8] == [[26, "414141m41", 27], [23, 60, 0, 60]]
    assert first[9:11] == [["47p4747", 28, 37, 39], [41, 60, "464646a46", 60]]
    assert first[12:14] == [[52, "c363738", 39, 41], [60, 41, "4747k4747"]]
    assert second[2:5] == [[11, 12, 12], [42], [60]]
    assert xml_parses == [GAME]  # the tree's walk
    assert repr(as_imported(data, "game.mjlog")) == repr(expected)
    assert xml_parses == [GAME]  # and nothing more


@pytest.mark.parametrize(
    ("old", "new", "parsed"),
    [
        # Tags the tiles read in another layout than Tenhou's: the tree reads them.
        ('<N who="2" m="51818" />', '<N m="51818" who="2"/>', True),
        ("<T56/>", "<T56 />", True),
        ('<DORA hai="33" />', '<DORA hai="33" x="1"/>', True),
        ('<REACH who="0" step="1"/>', '<REACH step="1" who="0"/>', True),
        # Layouts the text path reads itself: blank space between tags, a tile spelled with a zero, a hand
        # dealt in another spelling, a tag the tiles do not read, a sanma game (a fourth seat with no hand).
        ("<T56/><D56/>", "<T56/>\n  <D056/>\n", False),
        ('hai0="0,5,6"', 'hai0=" 6, 5,0,"', False),
        ("<T112/>", '<BYE who="3"/><T112/>', False),
        ('type="169"', 'type="185"', False),
        # Before the first hand nothing is kept, whatever it says.
        ('<TAIKYOKU oya="0"/>', '<TAIKYOKU oya="0"/><T5/><D5/>', False),
    ],
)
def test_a_layout_reads_alike_both_ways(old: str, new: str, parsed: bool, xml_parses: list[str]) -> None:
    assert old in GAME
    data = GAME.replace(old, new, 1).encode()
    expected = through_tree(data, "game.mjlog")
    xml_parses.clear()  # the expected reading's own parse is not the import's
    assert repr(as_imported(data, "game.mjlog")) == repr(expected)
    assert xml_parses == ([data.decode()] if parsed else [])


@pytest.mark.parametrize(
    ("old", "new", "left"),
    [
        # Blank space after the opening tag, between tags, at the end.
        ('<mjloggm ver="2.3">', '<mjloggm ver="2.3">\n', False),
        ("<T56/><D56/>", "<T56/><D56/>\n", False),
        ('<U58/><E58/><V64/><F64/><N who="3"', '<U58/><E58/><V64/><F64/>\r\n\t<N who="3"', False),
        ("</mjloggm>", "</mjloggm>\n", False),
        # A repeated attribute (malformed XML), a tag with more attributes than the plain shape's, an entity.
        ('<UN n0="A"', '<UN n0="A" n0="A"', True),
        ('<BYE who="3"/>', '<BYE who="3" who="3"/>', True),
        ('<BYE who="3"/>', '<BYE a="1" b="2" c="3"/>', True),
        ('n0="A"', 'n0="&amp;"', True),
        # The reader's refusals: a riichi past the table's seats, a win after the game's end.
        ('<REACH who="0" step="1"/>', '<REACH who="4" step="1"/>', True),
        (
            "</mjloggm>",
            '<AGARI ba="0,0" hai="1" machi="1" ten="30,1000,0" yaku="1,1" doraHai="1" who="0" '
            'fromWho="1" sc="250,10,250,-10,250,0,250,0" /></mjloggm>',
            True,
        ),
        # Something after the closing tag.
        ("</mjloggm>", "</mjloggm><T5/>", True),
        ("</mjloggm>", "</mjloggm></mjloggm>", True),
    ],
)
def test_a_text_the_pieces_reader_leaves_to_the_others_reads_as_they_read_it(old: str, new: str, left: bool) -> None:
    # What the import's reader of the pieces is not sure of it leaves to the reader of the text (which
    # reads it, leaves it to the parser or refuses it); what it reads, it reads as that reader does.
    text = GAME.replace("<T112/>", '<BYE who="3"/><T112/>', 1)
    assert through_pieces(text, "game.mjlog") is not None
    assert old in text
    changed = text.replace(old, new, 1)
    game = through_pieces(changed, "game.mjlog")
    assert (game is None) == left
    if game is not None:
        tiles = plain_hand_tiles(changed)
        assert repr(game) == repr(tenhou_xml.read_plain_mjlog(changed, file="game.mjlog", tiles=tiles))
    data = changed.encode()
    assert repr(as_imported(data, "game.mjlog")) == repr(through_tree(data, "game.mjlog"))


def _order(tile: int) -> tuple[int, int]:
    return tile // 4, 1 if tile in REDS else 0


def test_every_chi_and_pon_code_lists_the_others_by_kind_a_red_five_last() -> None:
    # The call string's tiles other than the called one are listed as Tenhou lists them: by kind, a
    # red five after the plain ones (``_order``), for every meld code of a chi, a pon or an added kan.
    for meld in range(1 << 16):
        if not meld & 0x1C or (meld & 0x18 and not meld & 0x4 and meld & 3 == 0):
            continue  # a kan, a north, or a pon from nobody
        text, _ = call_string(meld, 4)
        if meld & 0x4:
            base = meld >> 10
            kind = base // 3 // 7 * 9 + base // 3 % 7
            tiles = [(kind + i) * 4 + ((meld >> (3 + 2 * i)) & 3) for i in range(3)]
            called = tiles[base % 3]
            assert text[:3] == f"c{code(called)}"
        else:
            kind = (meld >> 9) // 3
            unused = (meld >> 5) & 3
            tiles = [kind * 4 + i for i in range(4) if i != unused]
            called = tiles[(meld >> 9) % 3]
        # (The called tile's own code, and an added kan's, come where the letter puts them.)
        others = [code(t) for t in sorted((t for t in tiles if t != called), key=_order)]
        placed = text.replace(f"c{code(called)}", "").replace(f"p{code(called)}", "")
        if meld & 0x10 and not meld & 0x4:
            placed = placed.replace(f"k{code(kind * 4 + unused)}{code(called)}", "")
        assert [int(placed[i : i + 2]) for i in range(0, len(placed), 2)] == others, (meld, text)


@pytest.mark.parametrize(
    ("old", "new", "refusal"),
    [
        ('<DORA hai="33" />', '<DORA hai="x" />', "game.mjlog, INIT #1 <DORA>: hai='x': not a tile"),
        ('hai1="7"', 'hai1="7,?"', "game.mjlog, INIT #2 <INIT>: hai1='7,?': not a tile"),
        ('doraHaiUra="34,6"', 'doraHaiUra="34,six"', "game.mjlog, INIT #1 <AGARI>: doraHaiUra='34,six': not a tile"),
        (
            'seed="1,0,0,3,3,79"',
            'seed="1,0,0,3,3"',
            "game.mjlog, INIT #2 <INIT>: seed='1,0,0,3,3': no dora indicator (its sixth number)",
        ),
        # A pon called from nobody: no call of Tenhou's.
        ('m="51818"', 'm="51816"', "game.mjlog, INIT #1 <N>: m='51816': not a call Tenhou writes"),
    ],
)
def test_a_value_no_tile_is_read_from_is_refused_on_one_line(old: str, new: str, refusal: str) -> None:
    assert old in GAME
    data = GAME.replace(old, new, 1).encode()
    assert as_imported(data, "game.mjlog") == refusal
    # The same through the tree (a log outside the plain shape), and through the import's reader.
    commented = data.replace(b"<UN ", b"<!-- --><UN ", 1)
    assert as_imported(commented, "game.mjlog") == refusal
    with pytest.raises(LogError) as refused:
        read_games(data, file="game.mjlog", tiles=True)
    assert str(refused.value) == refusal
    # ``verify`` reads no tiles: the same log is read without them.
    assert read_games(data, file="game.mjlog")


SEATS = st.integers(0, 3)
TAGS = st.one_of(
    st.builds(lambda letter, tile: f"<{letter}{tile}/>", st.sampled_from("TUVWDEFG"), st.integers(0, 135)),
    st.builds(lambda letter: f"<{letter}/>", st.sampled_from("TUVW")),
    st.builds(lambda seat, meld: f'<N who="{seat}" m="{meld}" />', SEATS, st.integers(0, 65535)),
    st.builds(lambda seat: f'<REACH who="{seat}" step="1"/>', SEATS),
    st.builds(lambda seat: f'<REACH who="{seat}" ten="250,250,250,250" step="2"/>', SEATS),
    st.builds(lambda tile: f'<DORA hai="{tile}" />', st.integers(0, 135)),
)
# At most one per log: a layout or a value the text path leaves to the tree, or one it reads itself
# (blank space, a tile past 135 or spelled with a zero, a tag the tiles do not read).
RARE = st.sampled_from(['<N m="1" who="0"/>', "<T5 />", '<DORA hai="y" />', "\n", "<T0140/>", '<BYE who="1"/>'])
HAND_END = '<RYUUKYOKU ba="0,0" sc="250,0,250,0,250,0,250,0"{owari} />'


@given(
    st.sampled_from([169, 185]),
    st.lists(st.tuples(st.integers(0, 135), st.lists(TAGS, max_size=40)), min_size=1, max_size=3),
    st.none() | st.tuples(st.integers(0, 40), RARE),
)
def test_a_made_up_log_reads_alike_both_ways(
    kind: int, hands: list[tuple[int, list[str]]], rare: tuple[int, str] | None
) -> None:
    text = HEADER.format(kind=kind)
    for number, (indicator, tags) in enumerate(hands):
        last = number == len(hands) - 1
        if rare is not None and last:
            tags = [*tags[: rare[0]], rare[1], *tags[rare[0] :]]
        text += (
            f'<INIT seed="0,{number},0,0,0,{indicator}" ten="250,250,250,250" oya="0" '
            f'hai0="1,2,3" hai1="4,5,6" hai2="7,8,9" hai3="10,11,12"/>'
        )
        text += "".join(tags) + HAND_END.format(owari=' owari="250,0.0,250,0.0,250,0.0,250,0.0"' if last else "")
    text += "</mjloggm>"
    data = text.encode()
    expected = through_tree(data, "made.mjlog")
    assert repr(as_imported(data, "made.mjlog")) == repr(expected)
    if rare is None and not isinstance(expected, str):
        # Tags in Tenhou's layouts only, read without a refusal: read from the text, not the tree.
        assert plain_hand_tiles(text) is not None


def test_the_tiles_module_reads_a_gzipped_log_as_it_reads_the_log() -> None:
    import gzip

    data = GAME.encode()
    assert repr(as_imported(gzip.compress(data), "game.mjlog")) == repr(as_imported(data, "game.mjlog"))


@given(st.lists(st.integers(0, 135), min_size=1, max_size=14))
def test_a_hand_dealt_as_tenhou_writes_it_is_sorted_as_any_other_spelling(tiles: list[int]) -> None:
    # Tenhou's spelling goes through one look-up per tile's text; with a blank before each tile the
    # same hand takes the general reading (``_order``: by kind, a red five after the plain ones).
    written = ",".join(map(str, tiles))
    spaced = ",".join(f" {tile}" for tile in tiles)
    fast = _hand_start("0,0,0,0,0,5", [written, "", "", ""], 4)
    general = _hand_start("0,0,0,0,0,5", [spaced, "", "", ""], 4)
    assert fast[2] == general[2] == [code(tile) for tile in sorted(tiles, key=lambda t: (t // 4, t in (16, 52, 88)))]
    if {16, 17} <= set(tiles):
        # The red five of manzu (tile 16, code 51) after a plain one (code 15).
        assert fast[2].index(51) > fast[2].index(15)


def test_the_piece_pattern_is_compiled_by_the_tiles_only() -> None:
    # ``honba verify`` reads with ``_STEP`` alone: importing the reader compiles no piece pattern (some
    # 20 M instructions at every start); the tiles' module, which an import loads, compiles it once.
    script = (
        "import replay.formats.tenhou_xml as x; print(x.piece_pattern.cache_info().currsize); "
        "import replay.formats.tenhou_xml_tiles; print(x.piece_pattern.cache_info().currsize)"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60)
    assert done.stdout.split() == ["0", "1"]
