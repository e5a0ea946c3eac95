"""Which rules a command means: a preset name, a rule file, or a stored match's own rules.

Every command that takes rules (``start``, ``rules show``/``diff``, ``audit --rules``, ``import``
and ``verify --rules``) resolves them here, so a reference means the same everywhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from domain.errors import InvalidRules
from domain.rules import Ruleset, load_preset, parse_rule_text
from domain.said import Said
from replay.input.files import MAX_RULE_FILE, FileTooLarge, read_capped
from replay.input.parsing import parse_override


def resolve_rules(ref: str, *, files: bool = True) -> Ruleset:
    """The rules a reference names: the path of a TOML rule file (``base`` then values), else a preset.
    Without ``files`` (a page's request) a preset only: a file on the server is never read for one.

    A file that changes a preset without naming itself is named after its file, not after the
    preset it starts from, so that it is not taken for the preset. An unreadable file or an
    unknown preset raises ``InvalidRules`` naming the reference.
    """
    path = Path(ref)
    if not files or not (ref.endswith(".toml") or path.is_file()):
        return load_preset(ref)
    try:
        text = read_capped(path, limit=MAX_RULE_FILE, what="rule file").decode("utf-8")
    except FileTooLarge as exc:
        raise InvalidRules(exc.said) from None
    except OSError as exc:
        # The system's own words on why (no such file, permission denied): quoted as they are.
        why = exc.strerror or str(exc)
        raise InvalidRules(Said("{ref}: cannot read the rule file ({why})", ref=ref, why=why)) from None
    except UnicodeDecodeError as exc:
        raise InvalidRules(
            Said("{ref}: the rule file is not UTF-8 text (byte {byte})", ref=ref, byte=exc.start)
        ) from None
    rules = parse_rule_text(text, source=ref)
    import tomllib  # a rule file's only, as domain.rules reads TOML (a recording command reads none)

    if "name" not in tomllib.loads(text):
        rules = rules.with_overrides({"name": path.stem}, source=ref)
    return rules


def rules_for_start(preset: str, rules_file: str | None, overrides: Sequence[str] | None) -> Ruleset:
    """The rules a new match starts under: a rule file, else a preset, then ``key=value`` overrides."""
    rules = resolve_rules(rules_file if rules_file is not None else preset)
    if overrides:
        rules = rules.with_overrides(dict(parse_override(o) for o in overrides), source="--set")
    return rules
