"""The director's ``honba tournament ...`` commands: a staged event's format and its next session,
players who come and go, teams, draws, what each player needs and what-if. They parse and present;
the use cases are ``replay.service.director``'s."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Any

import typer

from domain.bounds import AFTER_SESSION, COUNTRIES, EVENT_DAYS, EVENT_PLAYERS, SESSION, TABLE_SIZE, Bound
from domain.stages import EventFormat
from replay.cli.languages import DEFAULT, Lang, html_language
from replay.cli.layout import Column, Grid
from replay.cli.params import number_argument, number_option
from replay.cli.render import json_text
from replay.cli.reports import fresh_view
from replay.cli.shell import guarded, out, shell
from replay.cli.tournaments import tournament_app
from replay.input.files import read_capped, write_whole
from replay.input.parsing import InputError

Name = Annotated[str, typer.Argument(help="The tournament's name.")]
Session = Annotated[int, number_argument(bound=SESSION, help="The session (round).")]
Reason = Annotated[str, typer.Option("--reason", help="Why (kept in the tournament's log).")]
RulesOption = Annotated[str, typer.Option("--rules", help="The matches' rules: a preset or a rule file.")]
NoStart = Annotated[bool, typer.Option("--no-start", help="Only seat the session; start no matches.")]
Format = Annotated[str, typer.Option("--format", help="table or json.")]
# Finish in the top N of the event's players.
TOP = Bound("top", 1, EVENT_PLAYERS)
# A seed file holds one line of 64 hexadecimal digits: anything much larger is not one.
MAX_SEED_FILE = 4096

# What a player without a finished match has in place of a rank or an average place.
NOTHING = "—"


def _or_dash(value: object) -> str:
    """A rank, or "—" where there is none yet."""
    return NOTHING if value is None else str(value)


@tournament_app.command("format")
def declare_format(
    ctx: typer.Context,
    name: Name,
    stage: Annotated[
        list[str],
        typer.Option(
            "--stage",
            help="A stage, in order: NAME:SESSIONS[:advance=N,carry=keep|halve|reset,seating=draw|rank|snake|swiss|"
            "fewest-repeats,later=...] (repeat for each stage).",
        ),
    ],
    substitutes: Annotated[
        str, typer.Option(help="How substitutes count: ema (-30 a match), as-played, not-counted, fixed:POINTS.")
    ] = "as-played",
    team_points: Annotated[str, typer.Option(help="Team points: the sum or average of members' points.")] = "sum",
    teams_apart: Annotated[bool, typer.Option("--teams-apart", help="Seat team-mates at different tables.")] = False,
) -> None:
    """Declare how the event is played: its stages, cuts, seating, substitutes and teams."""
    from replay.service.director.stages import declare_format as declare
    from replay.service.director.stages import event_format_of

    def run() -> EventFormat:
        fmt = event_format_of(stage, substitutes, team_points, teams_apart, substitutes_field="--substitutes")
        declare(shell(ctx).app, name, fmt)
        return fmt

    fmt = guarded(run)
    parts = [
        f"{s.name} ({s.sessions} session{'s' if s.sessions > 1 else ''}"
        + (f", top {s.advance} advance" if s.advance else "")
        + (f", points {s.carry}" if s.carry != "keep" else "")
        + ")"
        for s in fmt.stages
    ]
    out.print(f"{name}: " + ", then ".join(parts), markup=False)


@tournament_app.command("next")
def next_session(ctx: typer.Context, name: Name, rules: RulesOption = "tenhou", no_start: NoStart = False) -> None:
    """Seat the next session from the standings before it (closing the stage before it first when
    a new stage starts: the cut is recorded), and start a match per table."""
    from replay.service.common.rules import resolve_rules
    from replay.service.director.stages import next_session as seat_next

    def run() -> Any:
        ruleset = resolve_rules(rules)
        return seat_next(shell(ctx).app, fresh_view(ctx), name, ruleset, start=not no_start)

    seated = guarded(run)
    if seated.closed_stage is not None:
        out.print(f"Stage {seated.closed_stage} closed: {', '.join(seated.advanced)} advance", markup=False)
    out.print(
        f"Session {seated.session} ({seated.stage_name}, seated by {seated.method}): {len(seated.tables)} tables",
        markup=False,
    )
    _print_tables(seated.tables, seated.matches)
    if seated.team_clashes:
        out.print(f"{seated.team_clashes} pairs of team-mates could not be kept apart", markup=False)


def _print_tables(tables: Any, matches: Any) -> None:
    for number, table in enumerate(tables, start=1):
        key = f"  match {matches[number - 1]}" if matches else ""
        out.print(f"table {number}: {', '.join(table)}{key}", markup=False)


@tournament_app.command("results")
def results(ctx: typer.Context, name: Name, fmt: Format = "table") -> None:
    """Each stage's standings (who advanced, who was cut), the whole event's and the teams'."""
    from replay.service.director.stages import results_data, standings_of_event

    def run() -> dict[str, Any]:
        if fmt not in ("table", "json"):
            raise InputError(f"--format must be table or json, not {fmt!r}")
        return results_data(standings_of_event(shell(ctx).app, fresh_view(ctx), name))

    data = guarded(run)
    if fmt == "json":
        print(json_text(data))
        return
    for stage in data["stages"]:
        if not stage["started"]:
            continue
        title = f"{stage['name']} (sessions {', '.join(map(str, stage['sessions']))})"
        if stage["advance"]:
            title += f": top {stage['advance']} advance"
        table = Grid(
            title,
            [
                Column("rank", numeric=True, key=True),
                Column("player", key=True),
                *(Column(c, numeric=True) for c in ("carried", "points", "matches", "avg place")),
                Column(""),
            ],
        )
        for row in stage["rows"]:
            note = "; ".join([row["status"], *row["marks"]] if row["status"] else row["marks"])
            # A player without a finished match in the stage has no rank and no average place yet.
            table.add_row(
                _or_dash(row["rank"]),
                row["player"],
                f"{row['carried']:+.1f}",
                f"{row['points']:+.1f}",
                str(row["matches"]),
                NOTHING if row["average_place"] is None else f"{row['average_place']:.2f}",
                note,
            )
        out.print(table)
    said = f" ({data['stage_said']})" if data["stage_said"] else ""
    overall = Grid(
        f"{name}: the whole event{said}",
        [
            Column("rank", numeric=True, key=True),
            Column("player", key=True),
            Column("reached"),
            Column("points", numeric=True),
            Column(""),
        ],
    )
    for row in data["overall"]:
        overall.add_row(str(row["rank"]), row["player"], row["stage"], f"{row['points']:+.1f}", "; ".join(row["marks"]))
    out.print(overall)
    if data["teams"]:
        teams = Grid(
            "Teams",
            [
                Column("rank", numeric=True, key=True),
                Column("team", key=True),
                Column("points", numeric=True),
                Column("matches", numeric=True),
                Column("members"),
            ],
        )
        for row in data["teams"]:
            teams.add_row(
                str(row["rank"]), row["team"], f"{row['points']:+.1f}", str(row["matches"]), ", ".join(row["members"])
            )
        out.print(teams)


@tournament_app.command("withdraw")
def withdraw(
    ctx: typer.Context,
    name: Name,
    player: Annotated[str, typer.Argument(help="The player who leaves.")],
    after: Annotated[
        int, number_option("--after", bound=AFTER_SESSION, help="The last session they played (0: none).")
    ],
    reason: Reason,
) -> None:
    """A player leaves after a session: their matches stay; they are seated no more."""
    from replay.service.director.stages import withdraw as leave

    guarded(lambda: leave(shell(ctx).app, name, player, after, reason))
    out.print(f"{player} withdrew from {name} after session {after}", markup=False)


@tournament_app.command("substitute")
def substitute(
    ctx: typer.Context,
    name: Name,
    sub: Annotated[str, typer.Argument(help="The substitute's name.")],
    replaces: Annotated[str, typer.Option("--for", help="The player who withdrew, whose seat they fill.")],
    reason: Reason,
    override: Annotated[
        bool,
        typer.Option(
            "--override", help="The director's override: a substitute for a player who has not withdrawn (recorded)."
        ),
    ] = False,
) -> None:
    """Seat a substitute in the place of a player who withdrew (their results count as the event's
    format says)."""
    from replay.service.director.stages import substitute as stand_in

    guarded(lambda: stand_in(shell(ctx).app, name, sub, replaces, reason, override=override))
    out.print(f"{sub} plays for {replaces} in {name}", markup=False)


@tournament_app.command("team")
def team(
    ctx: typer.Context,
    name: Name,
    team_name: Annotated[str, typer.Argument(help="The team.")],
    players: Annotated[list[str], typer.Argument(help="Its players.")],
) -> None:
    """Put players in a team."""
    from replay.service.director.stages import join_team

    guarded(lambda: join_team(shell(ctx).app, name, team_name, players))
    out.print(f"{', '.join(players)} play for {team_name} in {name}", markup=False)


@tournament_app.command("commit-draw")
def commit_draw(
    ctx: typer.Context,
    name: Name,
    session: Session,
    seed_file: Annotated[
        Path | None, typer.Option("--seed-file", help="Write the new seed here (a new file, mode 0600).")
    ] = None,
    commitment: Annotated[
        str | None, typer.Option("--commitment", help="A commitment made elsewhere (SHA-256 of the seed, hex).")
    ] = None,
    size: Annotated[
        int | None,
        number_option("--size", bound=TABLE_SIZE, help="Players a table (else as the reveal's rules seat)."),
    ] = None,
) -> None:
    """Publish the commitment of a session's draw before registration closes; the seed goes to a
    file only the director keeps, to be revealed with reveal-draw. What the draw depends on (the
    players, their teams where team-mates are kept apart, the method, the table's size) is fixed
    with it: nobody is registered, joins a team or is seated in the session otherwise until the
    reveal."""
    from replay.service.director.draws import commit_draw as commit

    def run() -> Any:
        if (seed_file is None) == (commitment is None):
            raise InputError("give --seed-file (honba draws the seed) or --commitment (a seed drawn elsewhere)")
        if seed_file is not None and seed_file.exists():
            raise InputError(f"{seed_file} exists: the seed goes to a new file")
        made = commit(shell(ctx).app, name, session, commitment, size=size)
        if seed_file is not None and made.seed is not None:
            descriptor = os.open(seed_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(descriptor, "w", encoding="ascii") as handle:
                handle.write(made.seed + "\n")
        return made

    made = guarded(run)
    out.print(f"Commitment of the draw of session {session} of {name}: {made.commitment}", markup=False)
    out.print(
        f"Terms of the draw (publish them with the commitment): {_terms_line(made.terms)}", markup=False, soft_wrap=True
    )
    out.print(f"Terms digest: {made.terms_digest}", markup=False)
    if seed_file is not None:
        out.print(f"The seed is in {seed_file}: keep it to yourself until the draw (reveal-draw)", markup=False)


def _terms_line(terms: dict[str, Any]) -> str:
    """A draw's terms in one line, as ``verify-draw`` takes them back (--players, --teams, --size)."""
    teams = ",".join(f"{player}={team}" for player, team in sorted(terms.get("teams", {}).items()))
    parts = [f"--players {','.join(terms.get('players', []))}"]
    if terms.get("teams_apart"):
        parts.append(f"--teams {teams}" if teams else "team-mates apart (no teams)")
    parts.append(f"--size {terms['size']}" if terms.get("size") else "size as the reveal's rules seat")
    return "; ".join(parts) + f"; method {terms.get('method', '?')}"


def _read_seed(seed_file: Path | None, seed: str | None) -> str:
    if (seed_file is None) == (seed is None):
        raise InputError("give the seed: --seed-file FILE or --seed HEX")
    if seed_file is not None:
        try:
            return read_capped(seed_file, limit=MAX_SEED_FILE, what="seed file").decode("ascii").strip()
        except UnicodeDecodeError:
            raise InputError(f"{seed_file}: not a seed file (a seed is 64 hexadecimal digits)") from None
    assert seed is not None
    return seed.strip()


@tournament_app.command("reveal-draw")
def reveal_draw(
    ctx: typer.Context,
    name: Name,
    session: Session,
    seed_file: Annotated[Path | None, typer.Option("--seed-file", help="The seed's file.")] = None,
    seed: Annotated[str | None, typer.Option("--seed", help="The seed (hex).")] = None,
    rules: RulesOption = "tenhou",
    no_start: NoStart = False,
) -> None:
    """Reveal the seed after registration closes: the session is seated as it draws the players."""
    from replay.service.common.rules import resolve_rules
    from replay.service.director.draws import reveal_draw as reveal

    def run() -> Any:
        return reveal(
            shell(ctx).app, name, session, _read_seed(seed_file, seed), resolve_rules(rules), start=not no_start
        )

    drawn = guarded(run)
    out.print(f"Session {session} of {name} drawn over {len(drawn.players)} players", markup=False)
    _print_tables(drawn.tables, drawn.matches)


@tournament_app.command("verify-draw")
def verify_draw(
    ctx: typer.Context,
    name: Annotated[str | None, typer.Argument(help="The tournament (omit with --seed and --players).")] = None,
    session: Annotated[int | None, number_argument(bound=SESSION, help="The session.")] = None,
    seed: Annotated[str | None, typer.Option("--seed", help="A published seed (hex), to recompute alone.")] = None,
    players: Annotated[str | None, typer.Option("--players", help="The players drawn over, comma-separated.")] = None,
    size: Annotated[int, number_option("--size", bound=TABLE_SIZE, help="Players a table.")] = 4,
    commitment: Annotated[str | None, typer.Option("--commitment", help="The commitment published.")] = None,
    teams: Annotated[
        str | None,
        typer.Option("--teams", help="The teams of a draw that kept team-mates apart: PLAYER=TEAM,... as published."),
    ] = None,
) -> None:
    """Recompute a draw: from the store (NAME SESSION), or from a published seed and player list
    alone (--seed, --players, and --commitment to check the seed against)."""
    from domain.draw import commitment_of
    from replay.service.director.draws import recompute_draw
    from replay.service.director.draws import verify_draw as verify

    if seed is not None:

        def alone() -> list[list[str]]:
            if players is None:
                raise InputError("--seed needs --players (the players drawn over)")
            if commitment is not None and commitment_of(seed) != commitment:
                raise InputError("the seed's digest is not that commitment: this is not the seed committed")
            team_of: dict[str, str] = {}
            for pair in (teams or "").split(","):
                if pair.strip():
                    player, sep, team = pair.partition("=")
                    if not sep or not player.strip() or not team.strip():
                        raise InputError(f"--teams takes PLAYER=TEAM pairs, comma-separated, not {pair.strip()!r}")
                    team_of[player.strip()] = team.strip()
            return recompute_draw(seed, [p.strip() for p in players.split(",") if p.strip()], size, team_of)

        _print_tables(guarded(alone), ())
        return
    if name is None or session is None:
        raise typer.Exit(code=_usage("give NAME SESSION, or --seed and --players"))
    check = guarded(lambda: verify(shell(ctx).app, name, session))
    out.print(f"commitment {check.commitment}", markup=False)
    out.print(f"seed       {check.seed}", markup=False)
    if check.terms:
        out.print(f"terms      {_terms_line(check.terms)}", markup=False, soft_wrap=True)
        out.print(f"terms digest {check.terms_digest}", markup=False)
    _print_tables(check.tables, ())
    if check.problems:
        for problem in check.problems:
            out.print(f"FAILED: {problem}", markup=False)
        raise typer.Exit(1)
    out.print(f"The draw of session {session} of {name} checks: the seed is the one committed", markup=False)


def _usage(message: str) -> int:
    from replay.cli.shell import fail

    return fail(message).exit_code


@tournament_app.command("ranking-facts")
def ranking_facts(
    ctx: typer.Context,
    name: Name,
    ended_on: Annotated[str, typer.Option("--ended-on", help="The day it ended (2026-11-21).")],
    days: Annotated[int, number_option("--days", bound=EVENT_DAYS, help="How many days it lasted.")] = 1,
    countries: Annotated[
        int, number_option("--countries", bound=COUNTRIES, help="How many countries its players came from.")
    ] = 1,
    qualification: Annotated[bool, typer.Option("--qualification", help="Players had to qualify.")] = False,
) -> None:
    """What a ranking across events weighs this event by (the EMA's MERS weight, its age)."""
    from replay.service.tournaments.tournaments import change_tournament

    guarded(
        lambda: change_tournament(
            shell(ctx).app, name, lambda t: t.declare_ranking_facts(ended_on, days, countries, qualification)
        )
    )
    out.print(f"{name}: ended {ended_on}, {days} days, {countries} countries", markup=False)


@tournament_app.command("needs")
def needs(
    ctx: typer.Context,
    name: Name,
    top: Annotated[
        int | None, number_option("--top", bound=TOP, help="Finish in the top N (default: the stage's cut, or 1).")
    ] = None,
    fmt: Annotated[str, typer.Option("--format", help="table, json or html (the standings page with it).")] = "table",
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Write to a file instead of stdout.")] = None,
    lang: Lang = DEFAULT,
) -> None:
    """Before the last session of the stage (or a final table): the placements and margins with which
    each player finishes in the top N; at a table in progress, the least hand that does it now."""
    from replay.service.director.needs import needs_data
    from replay.service.director.stages import event_report
    from replay.service.tournaments.standings import standings_data

    def run() -> tuple[dict[str, Any], Any]:
        if fmt not in ("table", "json", "html"):
            raise InputError(f"--format must be table, json or html, not {fmt!r}")
        html_language(lang)
        view = fresh_view(ctx)
        return needs_data(shell(ctx).app, view, name, top), view

    data, view = guarded(run)
    if fmt == "table":
        _needs_text(data)
        return
    if fmt == "json":
        body = json_text(data)
    else:
        from replay.html.pages import render_standings_html

        page = standings_data(guarded(lambda: event_report(shell(ctx).app, view, name)))
        body = render_standings_html(page, needs=data, language=lang)
    if output is None:
        print(body)
    else:
        guarded(lambda: write_whole(output, body))
        out.print(f"wrote {output}", markup=False)


def _needs_text(data: dict[str, Any]) -> None:
    out.print(f"{data['tournament']}: to finish in the top {data['top']} after session {data['session']}", markup=False)
    for player in data["players"]:
        out.print(
            f"{player['player']} (rank {_or_dash(player['rank'])}, {player['points']:+.1f}, table {player['table']})",
            markup=False,
        )
        for place in player["places"]:
            line = f"  place {place['place']}: {place['status']}"
            if place["status"] == "possible":
                line += f", beating at least {place['beat_at_least']} of those who can pass"
            if place.get("note"):
                line += f": {place['note']}"
            out.print(line, markup=False)
            if place["status"] != "possible":
                continue
            for c in place["conditions"]:
                if c["rival_place"] and c["relation"] == "margin":
                    margin = c["score_margin"]
                    wording = f"more than {margin:,} above" if margin >= 0 else f"at most {-margin:,} below"
                    out.print(f"    {c['rival']} placing {c['rival_place']}: finish {wording}", markup=False)
    for hand in data["hands"]:
        way = "self-drawn" if hand["discarder"] is None else f"on {hand['discarder']}'s discard"
        out.print(f"now: {hand['player']} {way}: {hand['value'] or 'no hand does it'}", markup=False)


@tournament_app.command("what-if")
def what_if(
    ctx: typer.Context,
    name: Name,
    rules: Annotated[
        str | None, typer.Option("--rules", help="Other rules for every match: a preset or rule file.")
    ] = None,
    overrides: Annotated[
        list[str] | None, typer.Option("--set", help="Change a rule value of every match: name=value (repeatable).")
    ] = None,
    tie_break: Annotated[str | None, typer.Option("--tie-break", help="placement or net_score.")] = None,
    without_penalties: Annotated[bool, typer.Option("--without-penalties", help="Leave every penalty out.")] = False,
    fmt: Format = "table",
) -> None:
    """The whole event's standings under other uma, oka, tie-breaks or penalties, beside them as run."""
    from replay.input.parsing import parse_override
    from replay.service.common.rules import resolve_rules
    from replay.service.director.what_if import what_if_data

    def run() -> dict[str, Any]:
        if fmt not in ("table", "json"):
            raise InputError(f"--format must be table or json, not {fmt!r}")
        changes = dict(parse_override(text) for text in overrides or [])
        other = resolve_rules(rules) if rules is not None else None
        return what_if_data(
            shell(ctx).app,
            fresh_view(ctx),
            name,
            rules=other,
            overrides=changes,
            tie_break=tie_break,
            without_penalties=without_penalties,
        )

    data = guarded(run)
    if fmt == "json":
        print(json_text(data))
        return
    table = Grid(
        f"{name}: as run and what if",
        [
            Column("what-if rank", numeric=True, key=True),
            Column("player", key=True),
            *(Column(c, numeric=True) for c in ("points", "as run", "rank as run", "change")),
        ],
    )
    for row in data["rows"]:
        table.add_row(
            _or_dash(row["what_if_rank"]),
            row["player"],
            f"{row['what_if_points']:+.1f}",
            f"{row['points']:+.1f}",
            _or_dash(row["rank"]),
            f"{row['difference']:+.1f}",
        )
    out.print(table)
