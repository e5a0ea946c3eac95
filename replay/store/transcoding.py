"""How the domain's values are stored in an event: their canonical plain data (``domain.codec``)."""

from __future__ import annotations

from typing import Any

from eventsourcing.persistence import Transcoding

from domain.codec import from_data, to_data


class ValueTranscoding(Transcoding):
    """Stores a domain value as its canonical plain data (``domain.codec``)."""

    def __init__(self, cls: type[Any]):
        self.type = cls
        self.name = f"honba.{cls.__name__}"

    def encode(self, obj: Any) -> Any:
        return to_data(obj)

    def decode(self, data: Any) -> Any:
        return from_data(self.type, data)
