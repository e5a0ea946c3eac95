"""Command-line values that are text already, taken as text: typer's parsing without pydantic where it is not needed.

typer 0.29 converts every parameter's value through a ``pydantic`` ``TypeAdapter`` built when the
command line is parsed, even a string that stays a string or an option left at its default: the
first command line parsed imports ``pydantic`` and ``pydantic_core`` and builds an adapter per
parameter, which is most of what a recording command pays beyond its libraries
(docs/performance.md, "command start"). ``HonbaGroup`` (the class of honba's typer groups) gives
each parameter a conversion that answers the cases whose result typer's own conversion fixes
without doing anything (a ``str`` value for a ``str`` parameter, strings for a ``list[str]``, an
``int`` default for an ``int``), reads every number typed on the command line with honba's one
number reader (``domain.bounds.whole_number``: ASCII digits only, a sign only where the range
allows it, a length cap, then the range the parameter declares with ``number_option``; issue 24),
and hands every other case to typer's own conversion, unchanged: a path or a choice typed on the
command line is read, checked and refused exactly as typer reads, checks and refuses it.

It reaches into typer's parameter class (``typer.core._TyperParameter``) and its conversion
contract (``typer._coercion``): pyproject pins typer to the releases that have them, and
``tests/e2e/test_cli_params.py`` checks both the results and that a recording command never
imports pydantic.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import typer
from typer._click import Command, Context, Parameter
from typer._click.exceptions import BadParameter
from typer._coercion import RuntimeParam, TypeDescriptor, build_runtime_param
from typer.core import TyperGroup, _TyperParameter

from domain.bounds import Bound, OutOfBounds, decimal_number, whole_number

# A number option without a range of its own (a hand's dora, melded sets: the domain holds them to
# theirs when it records them) is still read by the one number reader, with its length cap and sign.
ANY_NUMBER = Bound("number", -(10**18), 10**18)


# Not a dataclass of its own (typer's RuntimeParam is one, with the fields it needs): a class that
# generates no methods costs nothing to define when the command starts.
class TextFirst(RuntimeParam):
    """A parameter's conversion: text and unchanged defaults as they are, numbers by honba's one number
    reader (``domain.bounds``) in the range the parameter declares, anything else by typer."""

    def _plain(self, descriptor: TypeDescriptor) -> bool:
        # A parser, bounds or a file open make even a plain value typer's business.
        info = self.parameter_info
        return (
            info.parser is None
            and info.min is None
            and info.max is None
            and not info.clamp
            and descriptor.file_annotation is None
        )

    def _coerce_value(self, value: Any, param: _TyperParameter, ctx: Any) -> Any:
        annotation = self.annotation
        descriptor = param.type_descriptor
        if annotation in (int, float) and info_plain(self.parameter_info):
            if type(value) is str:
                return self._number(value, param, ctx)
            # A default declared with the parameter's own type (``melded: int = 0``) comes back as it is.
            if type(value) is annotation:
                return value
        if self._plain(descriptor):
            # typer's conversion of a str to str is str(value); of a list of str, a list of them.
            if annotation is str and type(value) is str:
                return value
            if (
                annotation == list[str]
                and isinstance(value, (list, tuple))
                and all(type(item) is str for item in value)
            ):
                return list(value)
        return build_runtime_param(descriptor)._coerce_value(value, param=param, ctx=ctx)

    def _number(self, text: str, param: _TyperParameter, ctx: Any) -> int | float:
        """A number typed on the command line, read by the one number reader
        (``domain.bounds.whole_number``: ASCII digits, a length cap) in the range the parameter
        declares (``number_option``), else only signed and capped; a refusal is a usage error
        naming the parameter, as typer's own."""
        info = self.parameter_info
        low = ANY_NUMBER.low if info.min is None else int(info.min)
        high = ANY_NUMBER.high if info.max is None else int(info.max)
        bound = Bound(param.name or "number", low, high)
        try:
            return whole_number(text, bound) if self.annotation is int else decimal_number(text, bound)
        except OutOfBounds as refused:
            raise BadParameter(refused.problem, ctx=ctx, param=param) from None


def info_plain(info: Any) -> bool:
    """Whether a number parameter is read by ``TextFirst`` alone: no parser or clamping of typer's."""
    return info.parser is None and not info.clamp


def number_option(*names: str, bound: Bound, help: str) -> Any:
    """A typer option for a whole number in ``bound``'s range (shown in the help), read by
    ``domain.bounds.whole_number`` (``TextFirst``)."""
    return typer.Option(*names, help=help, min=bound.low, max=bound.high)


def number_argument(*, bound: Bound, help: str) -> Any:
    """A typer argument for a whole number in ``bound``'s range, read as ``number_option``'s."""
    return typer.Argument(help=help, min=bound.low, max=bound.high)


def text_first(params: Iterable[Any]) -> None:
    """Give typer parameters the ``TextFirst`` conversion, unless they have a conversion already."""
    for param in params:
        if isinstance(param, _TyperParameter) and param._runtime_param is None:
            descriptor = param.type_descriptor
            param._runtime_param = TextFirst(parameter_info=descriptor.parameter_info, annotation=descriptor.annotation)


class HonbaGroup(TyperGroup):
    """honba's typer groups: as typer's, with the ``TextFirst`` conversion on the parameters of the
    group and of each command it runs (their help options too, which click makes when parsing)."""

    def get_params(self, ctx: Context) -> list[Parameter]:
        params = super().get_params(ctx)
        text_first(params)
        return params

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            text_first(command.get_params(ctx))
        return command
