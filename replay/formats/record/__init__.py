"""honba's record file: JSON Lines a person can write by hand (``docs/record-format.md``).

Three modules, each with one reason to change: ``read`` (the lines into domain values, and a
Match built from them), ``write`` (a match written back as lines) and ``chain`` (the digests that
make a file tamper-evident, and their check). The names below are the ones the rest of honba uses.
"""

from replay.formats.record.chain import FileCheck, chain_lines, check_record_text, record_lines
from replay.formats.record.read import (
    MatchRecord,
    PenaltyLine,
    RecordCorrection,
    RecordError,
    build_match,
    fact_from_line,
    parse_record,
)
from replay.formats.record.write import (
    dump_line,
    export_record,
    fact_line,
    rules_reference,
    unchained,
)

__all__ = [
    "FileCheck",
    "MatchRecord",
    "PenaltyLine",
    "RecordCorrection",
    "RecordError",
    "build_match",
    "chain_lines",
    "check_record_text",
    "dump_line",
    "export_record",
    "fact_from_line",
    "fact_line",
    "parse_record",
    "record_lines",
    "rules_reference",
    "unchained",
]
