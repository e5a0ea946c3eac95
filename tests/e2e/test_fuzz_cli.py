"""Fuzzing every command of ``honba``: what a careless operator or a hostile script may type (issue 24).

Each command gets arguments drawn by hypothesis: hostile Unicode (controls, separators,
bidirectional controls, undecodable bytes as the command line gives them, markup), numbers
nobody means (5000 digits, 10^23, ``²``, ``٣``, signs, exponents), JSON nested 100,000 deep or
with integers too long to read, oversized text, and hostile files (``/dev/zero``, binary, a
sparse file beyond the size cap, deep JSON). Whatever comes in:

- no traceback: the command exits 0 (done), 1 (``check`` or ``audit`` found a problem) or 2;
- a refusal (exit 2) is one line on stderr starting ``honba:`` (``import`` and ``verify``: one
  line per file they could not read);
- a refusal stores nothing: every row of the store is the same before and after.

The commands run in this process as the console script runs them (``honba_main``), each example
on a fresh copy of one store. The budget is fixed (``derandomize``: the same examples on every
run): ``EXAMPLES`` per command, over all the commands more than 200, well under two minutes on
one core. ``HONBA_FUZZ_EXAMPLES=100 HONBA_FUZZ_RANDOM=1`` searches further when a command changes.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from fuzz_samples import mjai_log
from honba_cli import Run, honba_main, store_rows
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay.input.files import MAX_FILE
from replay.service.director.certificates import generate_key

EXAMPLES = int(os.environ.get("HONBA_FUZZ_EXAMPLES", "7"))
FUZZ = settings(
    max_examples=EXAMPLES,
    derandomize=not os.environ.get("HONBA_FUZZ_RANDOM"),
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture, HealthCheck.data_too_large],
)
KEY = "club-1"
PLAYERS = ("Ann", "Ben", "Cho", "Dai")

# What a command line can hold: any character but NUL (argv strings are C strings), and of the
# surrogates only those undecodable bytes become (Python's surrogateescape, U+DC80 to U+DCFF).
HOSTILE = "\n\r\t\x1b\x7f\x85\x9b\u2028\u2029\u202e\u2066\u200f\ufeff\udc80\udcff\u200d[/b]<i>'\",:="
character = st.one_of(
    st.characters(codec="utf-8", exclude_characters="\x00"),
    st.characters(min_codepoint=0xDC80, max_codepoint=0xDCFF),
    st.sampled_from(HOSTILE),
)
words = st.one_of(
    st.text(character, min_size=0, max_size=20),
    st.text(character, min_size=60, max_size=300),
    st.just("x" * 20_000),
    st.sampled_from([*PLAYERS, KEY, "cup", "0", "3", "Ben:3/30", "tenhou", "wrc", "   "]),
)
numbers = st.one_of(
    st.sampled_from(["9" * 5000, str(10**23), "99999999999999999999999", "²", "٣", "\uff11", "-1", "+1", "0", "1e3"]),
    st.sampled_from(["0x10", "1_000", "1.5", "", " 7 ", "-0", "4000001", "1001", "65536", "NaN", "inf"]),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    words,
)
deep = st.sampled_from(["[" * 100_000, "{" * 50_000, '{"a":' * 40_000, "[" * 33 + "]" * 33])
json_lines = st.one_of(
    deep,
    st.sampled_from(
        [
            '{"type": "win", "wins": [{"winner": "Ben", "from": "Ann", "han": ' + "9" * 5000 + ', "fu": 30}]}',
            '{"type": "penalty", "player": "Ann", "amount": 99999999999999999999999}',
            '{"type": "draw", "ready": ["Ann\\n"]}',
            '{"type": "win", "wins": [{"winner": "Ben", "limit": "yakuman", "multiple": 1000}]}',
            '{"type": "abort", "kind": "four_winds", "riichi": [' + "0," * 5000 + "0]}",
            '{"type": "penalty", "player": "Ann", "note": "' + "n" * 100_000 + '"}',
        ]
    ),
    words,
)
anything = st.one_of(words, numbers, json_lines)
values = st.one_of(
    st.sampled_from(["3/30", "mangan", "2xyakuman", "1000xyakuman", "4faan", "120points", "40pts x 3dbl", "13han"]),
    numbers.map(lambda n: f"{n}/30"),
    numbers.map(lambda n: f"3/{n}"),
    numbers.map(lambda n: f"{n}xyakuman"),
    numbers.map(lambda n: f"{n}faan"),
    words,
)
winners = st.lists(
    st.builds(lambda who, what: f"{who}:{what}", st.one_of(words, numbers), values), min_size=1, max_size=3
)
hexes = st.one_of(
    st.sampled_from(["0" * 64, "f" * 64, "F" * 64, "0" * 63, "0" * 65, "g" * 64, "٣" * 64]), words, numbers
)
stages = st.one_of(
    st.builds(lambda name, n: f"{name}:{n}", words, numbers),
    st.builds(
        lambda name, n, a, carry, seating: f"{name}:{n}:advance={a},carry={carry},seating={seating}",
        st.one_of(st.sampled_from(["qualifier", "final"]), words),
        numbers,
        numbers,
        st.one_of(st.sampled_from(["keep", "halve", "reset"]), words),
        st.one_of(st.sampled_from(["draw", "rank", "snake"]), words),
    ),
    words,
)
substitutes = st.one_of(
    st.sampled_from(["ema", "as-played", "not-counted", "fixed:-30"]), numbers.map(lambda n: f"fixed:{n}"), words
)
dates = st.one_of(st.sampled_from(["2026-11-21", "2026-02-30", "20261121", "0001-01-01"]), words, numbers)
overrides = st.builds(
    lambda key, value: f"{key}={value}",
    st.sampled_from(["start_score", "uma", "name", "description", "kiriage_mangan", "players", "settling_table"]),
    anything,
)


def options(**choices: st.SearchStrategy[str]) -> st.SearchStrategy[list[str]]:
    """Some of these options, each with a drawn value (flags have ``st.none()``)."""
    pairs = [st.tuples(st.just(name), strategy) for name, strategy in choices.items()]
    return st.lists(st.one_of(*pairs), max_size=4).map(
        lambda chosen: [word for name, value in chosen for word in ((name,) if value is None else (name, value))]
    )


FLAG: st.SearchStrategy[str] = st.none()  # type: ignore[assignment]


class Files:
    """Hostile files and names for the commands that read or write files (made once)."""

    def __init__(self, folder: Path):
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "binary.bin").write_bytes(bytes(range(256)) * 64)
        with (folder / "huge.jsonl").open("wb") as huge:
            huge.truncate(MAX_FILE + 1)
        (folder / "deep.json").write_text('{"log": ' + "[" * 200_000 + "}", encoding="utf-8")
        (folder / "good.jsonl").write_bytes(mjai_log())
        (folder / "sheet.csv").write_text("hand,Ann,Ben,Cho,Dai\nE1-0,²,٣,1e3," + "9" * 5000 + "\n", encoding="utf-8")
        (folder / "rules.toml").write_text('base = "tenhou"\numa = [' + "9" * 5000 + ", 0, 0, 0]\n", encoding="utf-8")
        (folder / "dir").mkdir(exist_ok=True)
        if not (folder / "org.key").exists():
            generate_key(folder / "org")
        (folder / "seed.txt").write_text("0" * 64 + "\n", encoding="ascii")

    def inputs(self) -> st.SearchStrategy[str]:
        """Files to read: hostile ones, a directory, a missing one, a device that never ends."""
        names = ["binary.bin", "huge.jsonl", "deep.json", "good.jsonl", "sheet.csv", "rules.toml", "dir", "missing"]
        names += ["org.key", "org.pub.pem", "seed.txt", "cert.json", "cp.txt"]
        return st.one_of(st.sampled_from([str(self.folder / n) for n in names]), st.just("/dev/zero"), words)

    def outputs(self) -> st.SearchStrategy[str]:
        """Where to write: a drawn name, always inside the test's folder (never ``..`` or an absolute path)."""
        safe = words.map(lambda w: "out-" + w.replace("/", "_").replace("\x00", "")[:100])
        return st.one_of(safe, st.sampled_from(["dir", "missing/out.html", "binary.bin"])).map(
            lambda name: str(self.folder / name)
        )


def commands(files: Files) -> dict[str, st.SearchStrategy[list[str]]]:
    """Every command of ``honba`` and its arguments, drawn."""
    inputs, outputs = files.inputs(), files.outputs()
    key = st.one_of(st.just(KEY), words)
    who = st.one_of(st.sampled_from(PLAYERS), words, numbers)
    names = st.one_of(st.just(",".join(PLAYERS)), st.lists(words, min_size=1, max_size=5).map(",".join))
    tournament = st.one_of(st.sampled_from(["cup", "done"]), words)
    return {
        "start": st.builds(
            lambda k, p, rest: ["start", k, "--players", p, *rest],
            key,
            names,
            options(**{"--rules": words, "--set": overrides, "--rules-file": inputs, "--key": words}),
        ),
        "win": st.builds(
            lambda k, w, rest: ["win", k, *w, *rest],
            key,
            winners,
            options(
                **{
                    "--from": who,
                    "--pao": who,
                    "--riichi": who,
                    "--dora": numbers,
                    "--loser-scores": st.lists(numbers, max_size=5).map(",".join),
                    "--special": words,
                    "--tile": words,
                    "--discards": words,
                    "--melded": numbers,
                    "--jokers": numbers,
                    "--penalty": st.builds(lambda w, n: f"{w}:{n}", who, numbers),
                    "--fact": st.one_of(st.sampled_from(["last_tile", "first_turn", "robbed_kong"]), words),
                    "--key": words,
                    "--first-turn": FLAG,
                    "--last-tile": FLAG,
                }
            ),
        ),
        "draw": st.builds(
            lambda k, rest: ["draw", k, *rest],
            key,
            options(**{"--ready": who, "--riichi": who, "--nagashi": who, "--key": words}),
        ),
        "abort": st.builds(
            lambda k, kind, rest: ["abort", k, kind, *rest],
            key,
            st.one_of(st.sampled_from(["four_winds", "four_kongs", "other"]), words),
            options(**{"--riichi": who, "--kongs": st.lists(who, max_size=6).map(",".join)}),
        ),
        "penalty": st.builds(
            lambda k, p, rest: ["penalty", k, p, *rest],
            key,
            who,
            options(
                **{
                    "--amount": numbers,
                    "--kind": words,
                    "--share": words,
                    "--note": words,
                    "--by": words,
                    "--reason": words,
                    "--key": words,
                }
            ),
        ),
        "end": st.builds(lambda k, rest: ["end", k, *rest], key, options(**{"--reason": words, "--key": words})),
        # The clock (issue 25): a table's or a session's time limit, time added, the time left.
        "clock set": st.builds(
            lambda k, rest: ["clock", "set", k, *rest],
            key,
            options(**{"--minutes": numbers, "--by": words, "--key": words}),
        ),
        "clock start": st.builds(
            lambda k, rest: ["clock", "start", k, *rest],
            key,
            options(**{"--tournament": tournament, "--session": numbers, "--by": words}),
        ),
        "clock add": st.builds(
            lambda k, minutes, rest: ["clock", "add", k, "--minutes", minutes, *rest],
            key,
            numbers,
            options(**{"--by": words, "--reason": words}),
        ),
        "clock show": st.builds(
            lambda rest: ["clock", "show", *rest],
            options(**{"--tournament": tournament, "--session": numbers, "--json": FLAG}),
        ),
        "status": st.builds(lambda k, rest: ["status", k, *rest], key, options(**{"--json": FLAG})),
        "log": st.builds(lambda k, rest: ["log", k, *rest], key, options(**{"--format": words, "--json": FLAG})),
        "list": st.just(["list"]),
        "export": st.builds(
            lambda k, rest: ["export", k, *rest],
            key,
            options(**{"-o": outputs, "--format": words, "--plain": FLAG, "--force": FLAG}),
        ),
        "rules show": st.builds(lambda r: ["rules", "show", r], st.one_of(words, inputs)),
        "rules diff": st.builds(lambda a, b: ["rules", "diff", a, b], st.one_of(words, inputs), words),
        "amend": st.builds(
            lambda k, entry, rest: ["amend", k, entry, "--by", "Ref", "--reason", "why", *rest],
            key,
            numbers,
            st.one_of(
                st.builds(lambda line: ["--result", line], json_lines),
                st.builds(lambda w: ["win", *w], winners),
                st.builds(lambda p, a: ["penalty", p, "--amount", a], who, numbers),
                st.builds(
                    lambda field, value: ["--set", f"{field}={value}"],
                    st.one_of(
                        st.sampled_from(["value", "han", "dora", "riichi", "winner2", "amount", "melded"]), words
                    ),
                    anything,
                ),
                st.lists(words, max_size=3),
            ),
        ),
        "void": st.builds(
            lambda k, entry, by, why: ["void", k, entry, "--by", by, "--reason", why], key, numbers, words, words
        ),
        "undo": st.builds(lambda k, rest: ["undo", k, *rest], key, options(**{"--by": words, "--reason": words})),
        # An early end voided by name (issue 22): the template's "done-1" ended early, club-1 has not.
        "reopen": st.builds(
            lambda k, by, why, rest: ["reopen", k, "--by", by, "--reason", why, *rest],
            st.one_of(st.just("done-1"), key),
            words,
            words,
            options(**{"--key": words}),
        ),
        "check": st.builds(
            lambda targets, rest: ["check", *targets, *rest],
            st.lists(st.one_of(inputs, key), max_size=2),
            options(**{"--against": words, "--json": FLAG}),
        ),
        "audit": st.builds(
            lambda k, rest: ["audit", k, *rest],
            key,
            options(
                **{
                    "--against": inputs,
                    "--sheet-kind": words,
                    "--rules": st.one_of(words, inputs),
                    "--html": outputs,
                    "--json": FLAG,
                }
            ),
        ),
        "import": st.builds(
            lambda paths, rest: ["import", *paths, *rest],
            st.lists(inputs, min_size=1, max_size=3),
            options(
                **{
                    "--format": words,
                    "--tournament": words,
                    "--session": numbers,
                    "--batch": numbers,
                    "--jobs": numbers,
                    "--key-prefix": words,
                    "--rules": st.one_of(words, inputs),
                }
            ),
        ),
        "verify": st.builds(
            lambda paths, rest: ["verify", *paths, *rest],
            st.lists(inputs, min_size=1, max_size=3),
            options(**{"--format": words, "--jobs": numbers, "--rules": words, "--json": FLAG}),
        ),
        "stats": st.builds(
            lambda rest: ["stats", *rest],
            options(**{"--tournament": words, "--all": FLAG, "--player": words, "--format": words, "-o": outputs}),
        ),
        "tournament create": st.builds(
            lambda name, rest: ["tournament", "create", name, *rest], words, options(**{"--players": names})
        ),
        "tournament alias": st.builds(lambda n, a, p: ["tournament", "alias", n, a, p], key, words, who),
        "tournament unalias": st.builds(
            lambda n, a, why: ["tournament", "unalias", n, a, "--reason", why], words, words, words
        ),
        "tournament attach": st.builds(
            lambda n, k, rest: ["tournament", "attach", n, k, *rest],
            st.one_of(st.just("cup"), words),
            key,
            options(**{"--session": numbers, "--table": numbers}),
        ),
        "tournament detach": st.builds(
            lambda n, k, why: ["tournament", "detach", n, k, "--reason", why], st.just("cup"), key, words
        ),
        "tournament seat": st.one_of(
            st.builds(
                lambda n, session, tables: ["tournament", "seat", n, session, *tables],
                st.one_of(st.just("cup"), words),
                numbers,
                st.lists(names, min_size=1, max_size=3),
            ),
            # Seated by honba (issue 22): the director's use case, a match and a link per table.
            st.builds(
                lambda n, session, rest: ["tournament", "seat", n, session, *rest],
                st.one_of(st.just("cup"), words),
                numbers,
                options(
                    **{
                        "--method": st.one_of(st.sampled_from(["random", "fewest-repeats"]), words),
                        "--seed": numbers,
                        "--rules": st.one_of(st.sampled_from(["tenhou", "wrc"]), words),
                    }
                ),
            ),
        ),
        "tournament show": st.builds(lambda n: ["tournament", "show", n], st.one_of(st.just("cup"), words)),
        "standings": st.builds(
            lambda n, rest: ["standings", "--tournament", n, *rest],
            st.one_of(st.just("cup"), words),
            options(**{"--after": numbers, "--format": words, "-o": outputs}),
        ),
        # Only ports no server listens on: a valid one would serve until stopped.
        "serve": st.builds(
            lambda port, rest: ["serve", "--port", port, *rest],
            numbers.filter(
                lambda n: not (n.isascii() and n.strip().isdigit() and len(n) < 9 and 1 <= int(n) <= 65_535)
            ),
            options(**{"--host": words}),
        ),
        "token create": st.builds(
            lambda role, rest: ["token", "create", "--role", role, *rest],
            st.one_of(st.sampled_from(["table", "referee", "director"]), words),
            options(**{"--match": key}),
        ),
        "token revoke": st.builds(lambda t: ["token", "revoke", t], words),
        "token reissue": st.builds(lambda k: ["token", "reissue", "--match", k], key),
        # Staged events, players who come and go, teams, draws (issue 27).
        "tournament format": st.builds(
            lambda n, stage, rest: [
                "tournament",
                "format",
                n,
                *(w for text in stage for w in ("--stage", text)),
                *rest,
            ],
            tournament,
            st.lists(stages, min_size=1, max_size=3),
            options(**{"--substitutes": substitutes, "--team-points": words, "--teams-apart": FLAG}),
        ),
        "tournament next": st.builds(
            lambda n, rest: ["tournament", "next", n, *rest],
            tournament,
            options(**{"--rules": st.one_of(words, inputs), "--no-start": FLAG}),
        ),
        "tournament results": st.builds(
            lambda n, rest: ["tournament", "results", n, *rest], tournament, options(**{"--format": words})
        ),
        "tournament withdraw": st.builds(
            lambda n, p, after, why: ["tournament", "withdraw", n, p, "--after", after, "--reason", why],
            tournament,
            who,
            numbers,
            words,
        ),
        "tournament substitute": st.builds(
            lambda n, sub, p, why: ["tournament", "substitute", n, sub, "--for", p, "--reason", why],
            tournament,
            words,
            who,
            words,
        ),
        "tournament sheet": st.builds(
            lambda n, session, rest: ["tournament", "sheet", n, session, *rest],
            st.one_of(st.just("cup"), words),
            numbers,
            options(
                **{
                    "-o": outputs,
                    "--paper": st.one_of(st.sampled_from(["a4", "letter"]), words),
                    "--public-url": st.one_of(st.just("http://192.168.1.20:8000"), words),
                }
            ),
        ),
        "tournament sign-off": st.builds(
            lambda n, rest: ["tournament", "sign-off", n, *rest], tournament, options(**{"--off": FLAG})
        ),
        "tournament team": st.builds(
            lambda n, team, players: ["tournament", "team", n, team, *players],
            tournament,
            words,
            st.lists(who, min_size=1, max_size=4),
        ),
        "tournament commit-draw": st.builds(
            lambda n, session, how: ["tournament", "commit-draw", n, session, *how],
            tournament,
            numbers,
            st.one_of(
                st.builds(lambda out: ["--seed-file", out], outputs),
                st.builds(lambda c: ["--commitment", c], hexes),
                st.just([]),
            ),
        ),
        "tournament reveal-draw": st.builds(
            lambda n, session, how, rest: ["tournament", "reveal-draw", n, session, *how, *rest],
            tournament,
            numbers,
            st.one_of(
                st.builds(lambda path: ["--seed-file", path], inputs), st.builds(lambda seed: ["--seed", seed], hexes)
            ),
            options(**{"--rules": words, "--no-start": FLAG}),
        ),
        "tournament verify-draw": st.one_of(
            st.builds(lambda n, session: ["tournament", "verify-draw", n, session], tournament, numbers),
            st.builds(
                lambda seed, players, rest: ["tournament", "verify-draw", "--seed", seed, "--players", players, *rest],
                hexes,
                names,
                options(**{"--size": numbers, "--commitment": hexes}),
            ),
        ),
        "tournament ranking-facts": st.builds(
            lambda n, day, rest: ["tournament", "ranking-facts", n, "--ended-on", day, *rest],
            tournament,
            dates,
            options(**{"--days": numbers, "--countries": numbers, "--qualification": FLAG}),
        ),
        "tournament needs": st.builds(
            lambda n, rest: ["tournament", "needs", n, *rest],
            tournament,
            options(**{"--top": numbers, "--format": words, "-o": outputs}),
        ),
        "tournament what-if": st.builds(
            lambda n, rest: ["tournament", "what-if", n, *rest],
            tournament,
            options(
                **{
                    "--rules": st.one_of(words, inputs),
                    "--set": overrides,
                    "--tie-break": words,
                    "--without-penalties": FLAG,
                    "--format": words,
                }
            ),
        ),
        "ratings": st.builds(
            lambda rest: ["ratings", *rest],
            options(
                **{
                    "--system": st.one_of(st.sampled_from(["openskill", "ema"]), words),
                    "--tournament": tournament,
                    "--player": who,
                    "--as-of": dates,
                    "--min-results": numbers,
                    "--top": numbers,
                    "--format": words,
                    "-o": outputs,
                }
            ),
        ),
        "certificate keygen": st.builds(lambda prefix: ["certificate", "keygen", prefix], outputs),
        "certificate sign": st.builds(
            lambda n, k, out: ["certificate", "sign", n, "--key", k, "-o", out], tournament, inputs, outputs
        ),
        "certificate verify": st.builds(
            lambda c, rest: ["certificate", "verify", c, *rest],
            inputs,
            options(**{"--key": inputs, "--signature-only": FLAG}),
        ),
        "proof match": st.builds(
            lambda k, rest: ["proof", "match", k, *rest], st.one_of(st.just("done-1"), key), options(**{"-o": outputs})
        ),
        "proof check": st.builds(lambda r, rest: ["proof", "check", r, *rest], inputs, options(**{"--key": inputs})),
        "proof consistent": st.builds(
            lambda a, b, rest: ["proof", "consistent", a, b, *rest], inputs, inputs, options(**{"--key": inputs})
        ),
        # Never a host on the network: loopback's discard port (nothing listens), other schemes, words.
        "witness": st.builds(
            lambda url, k, log, rest: ["witness", url, "--key", k, "--log-key", log, *rest],
            st.one_of(
                st.sampled_from(["http://127.0.0.1:9", "file:///dev/zero", "ftp://127.0.0.1/", "http://["]), words
            ),
            st.one_of(st.just(str(files.folder / "org.key")), inputs),
            # golang.org/x/mod/sumdb/note's example verifier key, a file, a word.
            st.one_of(st.just("PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW"), inputs, words),
            options(**{"--state": outputs, "--name": words, "-o": outputs, "--no-post": FLAG}),
        ),
    }


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory, files: Files) -> Path:
    """A store with a match of two hands, a penalty and a correction, and a tournament with it; a
    finished tournament of one match ended early, and its signed certificate (``cert.json``); a
    signed checkpoint (``cp.txt``)."""
    db = tmp_path_factory.mktemp("template") / "store.sqlite"
    for args in (
        ("start", KEY, "--players", ",".join(PLAYERS)),
        ("win", KEY, "Ben:3/30", "--from", "Ann"),
        ("penalty", KEY, "Cho", "--amount", "900", "--note", "slow"),
        ("amend", KEY, "2", "--by", "Ref", "--reason", "why", "win", "Ben:4/30", "--from", "Ann"),
        ("tournament", "create", "cup", "--players", ",".join(PLAYERS)),
        ("tournament", "attach", "cup", KEY),
        ("start", "done-1", "--players", ",".join(PLAYERS)),
        ("win", "done-1", "Cho:mangan", "--from", "Dai"),
        ("end", "done-1", "--reason", "time limit"),
        ("tournament", "create", "done", "--players", ",".join(PLAYERS)),
        ("tournament", "attach", "done", "done-1"),
        ("views", "update"),
        ("certificate", "sign", "done", "--key", str(files.folder / "org.key"), "-o", str(files.folder / "cert.json")),
        ("checkpoint", "--sign", str(files.folder / "org.key"), "-o", str(files.folder / "cp.txt")),
    ):
        run = honba_main("--db", str(db), *args)
        assert run.code == 0, (args, run)
    return db


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Files:
    return Files(tmp_path_factory.mktemp("files"))


# Commands that report several files, one line each.
PER_FILE = ("import", "verify")


def shown(value: object) -> str:
    text = repr(value)
    return text if len(text) < 400 else text[:200] + " ... " + text[-200:]


def check_run(name: str, args: list[str], run: Run, before: object, after: object) -> None:
    command = f"honba {shown(args)}"
    assert not run.traceback, f"{command}:\n{run.traceback}"
    assert "Traceback" not in run.stderr, f"{command}: {shown(run.stderr)}"
    assert run.code in (0, 1, 2), f"{command}: exit {run.code}: {shown(run.stderr)}"
    if run.code == 2:
        lines = [line for line in run.stderr.splitlines() if line.strip()]
        assert lines and all(line.startswith("honba: ") for line in lines), f"{command}: {shown(run.stderr)}"
        if not name.startswith(PER_FILE):
            assert len(lines) == 1, f"{command}: {shown(run.stderr)}"
        # One line a person reads (replay.cli.shell.clipped: 600 characters, "honba: " and a hint).
        assert all(len(line) <= 650 for line in lines), f"{command}: {[len(line) for line in lines]}"
        # import stores the files it could read and exits 2 for those it could not (one line each).
        partly = name == "import" and "0 stored," not in run.stdout
        assert after == before or partly, f"{command} was refused but stored something"


def fuzz(name: str) -> Callable[..., None]:
    @FUZZ
    @given(data=st.data())
    def run(template: Path, files: Files, tmp_path: Path, data: st.DataObject) -> None:
        db = tmp_path / "store.sqlite"
        views = tmp_path / "store.views.sqlite"
        shutil.copyfile(template, db)
        shutil.copyfile(template.with_name("store.views.sqlite"), views)
        args = data.draw(commands(files)[name], label=name)
        before = store_rows(db)
        result = honba_main("--db", str(db), *args)
        check_run(name, args, result, before, store_rows(db))
        for path in tmp_path.iterdir():
            if path.is_file():
                path.unlink()

    return run


def _command_names() -> list[str]:
    # The names only (the strategies need the files, made in the fixture).
    return sorted(commands(_NoFiles()).keys())


class _NoFiles(Files):
    def __init__(self) -> None:
        self.folder = Path("/nonexistent")


@pytest.mark.parametrize("name", _command_names())
def test_no_command_line_gives_a_traceback_or_stores_on_refusal(
    name: str, template: Path, files: Files, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    fuzz(name)(template, files, tmp_path)


def test_every_command_of_honba_is_fuzzed() -> None:
    from typer.main import get_command

    from replay.cli import app

    def leaves(command: object, prefix: str = "") -> list[str]:
        subcommands = getattr(command, "commands", None)
        if not subcommands:
            return [prefix.strip()]
        return [leaf for sub_name, sub in subcommands.items() for leaf in leaves(sub, f"{prefix} {sub_name}")]

    everything = set(leaves(get_command(app)))
    # Not fuzzed: ``demo`` (it records the shipped sample match), ``views update`` and ``views
    # follow`` (they fold the store's own events: no argument to draw, or one that waits for new events),
    # ``rules list`` and ``checkpoint`` (no argument; a checkpoint of a damaged store: test_checkpoints.py).
    not_fuzzed = {"demo", "views update", "views follow", "rules list", "checkpoint"}
    assert everything - set(_command_names()) == not_fuzzed
    assert len(_command_names()) * EXAMPLES >= 200 or os.environ.get("HONBA_FUZZ_EXAMPLES")


def test_the_checks_catch_what_they_are_for(tmp_path: Path) -> None:
    # A traceback, a refusal on two lines and a refusal that stored are each caught.
    with pytest.raises(AssertionError):
        check_run("win", [], Run(1, "", "", "Traceback (most recent call last): ..."), [], [])
    with pytest.raises(AssertionError):
        check_run("win", [], Run(2, "", "honba: one\nhonba: two\n"), [], [])
    with pytest.raises(AssertionError):
        check_run("win", [], Run(2, "", "honba: refused\n"), [], [("stored_events", [(1,)])])
    check_run("import", [], Run(2, "", "honba: a: broken\nhonba: b: broken\n"), [], [])
