"""Tables that stay readable at any width: whole tables where they fit, else folded.

A rich ``Table`` squeezed below the width of its longest words cuts numbers and words inside
("-3,90/0", "deale/r"). A ``Grid`` is laid out when it is printed, at the console's width then:

1. as a table when every column fits with its longest word (number, name, header word) whole:
   prose cells wrap between words, never inside one;
2. else, where the grid allows it (``split``), as several tables, each with the key columns
   and as many of the others as fit (wide statistics at 80 columns);
3. else stacked: one block per row, its key columns as a heading and every other column on a
   line of its own (``label  value``), which reads on any terminal of 30 columns or more.

Nothing here decides what is shown: the commands give the cells, this module only lays them out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import attrs
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

# A cell: text, styled text, or parts shown one under another in a table and side by side
# (``Grid.joiner``) in a stacked block (a change and the score after it, say).
Cell = str | Text | tuple[str, ...]

# What a table of n columns takes beside its cells (the default box): one border each side,
# one between columns, and one space of padding each side of every cell.
PADDING = 2


def table_overhead(columns: int) -> int:
    """The characters a rich table with the default box and padding adds to its columns' widths."""
    return 2 + max(columns - 1, 0) + PADDING * columns


@attrs.frozen
class Column:
    """One column: its header, ``numeric`` (right-aligned), ``key`` (repeated in every part of a
    split table, and the heading of a stacked block), an optional rich ``style``, and ``prose``:
    the width below which the column's text (sentences, not numbers) reads worse wrapped than
    stacked, where its text is that wide."""

    header: str
    numeric: bool = False
    key: bool = False
    style: str | None = None
    prose: int = 0


def _text(console: Console, cell: Cell, joiner: str = "\n") -> Text:
    if isinstance(cell, tuple):
        cell = joiner.join(cell)
    # Strings go through the console's own ``render_str`` (``SafeConsole``: never markup).
    return console.render_str(cell) if isinstance(cell, str) else cell


def _widths(text: Text) -> tuple[int, int]:
    """The narrowest width a text takes without cutting a word, and its widest line."""
    plain = text.plain
    words = plain.split()
    lines = plain.split("\n")
    return max((cell_len(w) for w in words), default=0), max((cell_len(line) for line in lines), default=0)


class Grid:
    """A table laid out at the width it is printed at (see the module's docstring)."""

    def __init__(
        self,
        title: str | Text | None,
        columns: Sequence[Column],
        *,
        split: bool = False,
        show_lines: bool = False,
        joiner: str = "  ",
    ):
        self.title = title
        self.columns = tuple(columns)
        self.split = split
        self.show_lines = show_lines
        self.joiner = joiner
        self.rows: list[tuple[Cell, ...]] = []

    def add_row(self, *cells: Cell) -> None:
        """A row of cells, one per column (a missing one is empty)."""
        padded = (*cells, *("",) * (len(self.columns) - len(cells)))
        self.rows.append(tuple(padded[: len(self.columns)]))

    def _measure(self, console: Console) -> list[tuple[int, int]]:
        """Each column's narrowest width without a word cut, and its natural width."""
        found = []
        for index, column in enumerate(self.columns):
            texts = [console.render_str(column.header), *(_text(console, row[index]) for row in self.rows)]
            sizes = [_widths(text) for text in texts]
            least, natural = max(s[0] for s in sizes) or 1, max(s[1] for s in sizes) or 1
            found.append((max(least, min(natural, column.prose)), natural))
        return found

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        measured = self._measure(console)
        every = list(range(len(self.columns)))
        if _fits(measured, every, width):
            yield self._table(console, every, measured, width, self.title)
            return
        if self.split:
            parts = self._parts(measured, width)
            if parts is not None:
                for number, part in enumerate(parts):
                    title = self.title if number == 0 else _continued(self.title)
                    yield self._table(console, part, measured, width, title)
                return
        yield from self._stacked(console)

    def _table(
        self,
        console: Console,
        indexes: Sequence[int],
        measured: Sequence[tuple[int, int]],
        width: int,
        title: str | Text | None,
    ) -> Table:
        widths = _share([measured[i] for i in indexes], width - table_overhead(len(indexes)))
        table = Table(title=title, show_lines=self.show_lines)
        for index, column_width in zip(indexes, widths, strict=True):
            column = self.columns[index]
            table.add_column(
                column.header,
                justify="right" if column.numeric else "left",
                style=column.style,
                width=column_width,
                overflow="fold",
            )
        for row in self.rows:
            table.add_row(*(_text(console, row[i]) for i in indexes))
        return table

    def _parts(self, measured: Sequence[tuple[int, int]], width: int) -> list[list[int]] | None:
        """The columns in tables of their own, each with the key columns, as many as fit in each;
        None when a column does not fit even beside the key columns alone."""
        keys = [i for i, c in enumerate(self.columns) if c.key]
        parts: list[list[int]] = []
        current: list[int] = []
        for index, column in enumerate(self.columns):
            if column.key:
                continue
            if _fits(measured, [*keys, *current, index], width):
                current.append(index)
                continue
            if not current:
                return None
            parts.append(sorted([*keys, *current]))
            current = [index]
            if not _fits(measured, [*keys, *current], width):
                return None
        if current:
            parts.append(sorted([*keys, *current]))
        return parts

    def _stacked(self, console: Console) -> Iterable[RenderableType]:
        """One block per row: the key columns as its heading, every other column on its own line."""
        keys = [i for i, c in enumerate(self.columns) if c.key] or [0]
        if self.title is not None:
            title = self.title if isinstance(self.title, Text) else console.render_str(self.title)
            yield Text.assemble(title, style="bold")
        for row in self.rows:
            parts = (_heading_part(self.columns[i].header, _text(console, row[i], self.joiner).plain) for i in keys)
            heading = " · ".join(part for part in parts if part)
            block = Table.grid(padding=(0, 2))
            block.add_column(no_wrap=True, style="dim")
            block.add_column(overflow="fold")
            for index, column in enumerate(self.columns):
                if index in keys:
                    continue
                value = _text(console, row[index], self.joiner)
                # An empty cell, or a dash standing for nothing, says nothing in a block.
                if value.plain.strip() not in ("", "-"):
                    block.add_row(console.render_str(column.header or "-"), value)
            lines: list[RenderableType] = [Text("")]
            if heading:
                lines.append(console.render_str(heading, style="bold"))
            yield Group(*lines, block)


def _heading_part(header: str, value: str) -> str:
    """``entry 5`` of a heading; nothing for an empty cell."""
    value = " ".join(value.split())
    if not value:
        return ""
    return f"{header} {value}" if header else value


def _continued(title: str | Text | None) -> str | Text | None:
    if title is None:
        return None
    if isinstance(title, Text):
        return Text.assemble(title, " (continued)")
    return f"{title} (continued)"


def _fits(measured: Sequence[tuple[int, int]], indexes: Sequence[int], width: int) -> bool:
    return sum(measured[i][0] for i in indexes) + table_overhead(len(indexes)) <= width


def _share(measured: Sequence[tuple[int, int]], room: int) -> list[int]:
    """Column widths within ``room``: each at its natural width where all fit, else the widest
    prose columns narrowed first, none below its longest word."""
    widths = [natural for _least, natural in measured]
    least = [low for low, _natural in measured]
    excess = sum(widths) - room
    while excess > 0:
        slack = [(w - low, w, i) for i, (w, low) in enumerate(zip(widths, least, strict=True)) if w > low]
        if not slack:
            break
        _gap, _w, index = max(slack, key=lambda item: (item[1], item[0]))
        widths[index] -= 1
        excess -= 1
    return widths
