"""The director's refusals as words (issue 33): aliases, teams, seating a session, the draw's
commit and reveal, the stages, the clock, tables still playing, certificates, what each player
needs, ratings and stats, each the English the command line always printed (its ``str()``) and,
said in Japanese from the service's catalogue (``replay/web/locale/ja/LC_MESSAGES/service.po``),
with the data in it as it is: names and keys quoted as typed, never translated.

The event: "Cup" (or "Open") of eight players, Ann to Hal, tables of four under Tenhou's rules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from domain.clock import Clock, check_minutes
from domain.draw import commitment_of, drawn_seating
from domain.errors import HonbaError
from domain.rules import load_preset
from domain.said import Said, one_of
from domain.seating import random_seating
from domain.stages import EventFormat, SubstituteRule, parse_stage
from domain.tournament import Tournament
from replay.service.common.access import TokenStore
from replay.service.director import certificates, director, draws, stages
from replay.service.director.needs import needs_data
from replay.service.tournaments.stats import stats_report
from replay.service.tournaments.tournaments import create_tournament
from replay.store.application import HonbaApp
from replay.store.standings_view import catch_up, open_view
from replay.web.i18n import say

EIGHT = ["Ann", "Ben", "Cho", "Dai", "Eve", "Fay", "Gus", "Hal"]
SEED = "ab" * 32


def refused(call: Callable[[], object]) -> HonbaError:
    with pytest.raises(HonbaError) as caught:
        call()
    return caught.value


def cup(*extra: str) -> Tournament:
    return Tournament.create("Cup", [*EIGHT, *extra])


def committed() -> Tournament:
    """Cup with the draw of session 1 committed over its eight players."""
    event = cup()
    event.commit_draw(1, commitment_of(SEED), {"players": EIGHT})
    return event


def seated() -> Tournament:
    """Cup with session 1 seated (Ann to Dai at table 1) and its match m1 attached."""
    event = cup()
    event.plan_session(1, [EIGHT[:4], EIGHT[4:]])
    event.attach("m1", EIGHT[:4], 1, 1)
    return event


def aliased() -> Tournament:
    """Cup with Annie (registered too) an alias of Ann, and B1 and B2 aliases of Bee."""
    event = cup("Annie", "Bee")
    event.declare_alias("Annie", "Ann")
    event.declare_alias("B1", "Bee")
    event.declare_alias("B2", "Bee")
    return event


def staged(closed: int) -> Tournament:
    """Cup in three stages of a session each (8, then 4 advance), its first ``closed`` stages closed."""
    event = cup()
    stages_typed = ("a:1:advance=8", "b:1:advance=4", "c:1")
    event.declare_format(
        EventFormat(
            tuple(parse_stage(text, first=i == 0) for i, text in enumerate(stages_typed)),
            SubstituteRule("as-played"),
            "sum",
            False,
        )
    )
    for stage in range(1, closed + 1):
        event.close_stage(stage, EIGHT, EIGHT, dict.fromkeys(EIGHT, 0))
    return event


def fmt(*typed: str, substitutes: SubstituteRule | None = None, team_points: str = "sum") -> EventFormat:
    parsed = tuple(parse_stage(text, first=i == 0) for i, text in enumerate(typed))
    return EventFormat(parsed, substitutes or SubstituteRule("as-played"), team_points, False).check()


# (what is refused, the English as always, the Japanese)
DOMAIN = [
    (
        lambda: cup().declare_alias("Ann", "Ann"),
        "an alias must differ from the player's name",
        "別名は選手の名前と違うものにしてください",
    ),
    (
        lambda: aliased().declare_alias("A", "Annie"),
        "'Annie' is itself an alias of 'Ann': declare 'A' an alias of 'Ann'",
        "'Annie' 自体が 'Ann' の別名です: 'A' を 'Ann' の別名にしてください",
    ),
    (
        lambda: aliased().declare_alias("Bee", "Cho"),
        "'Bee' has aliases of its own (B1, B2): withdraw them first",
        "'Bee' には別名があります(B1, B2): 先にそれらを取り消してください",
    ),
    (
        lambda: aliased().withdraw_alias("Nobody", "typo"),
        "'Nobody' is no alias in 'Cup'",
        "'Nobody' は 'Cup' の別名ではありません",
    ),
    (
        lambda: aliased().withdraw_alias("Annie", " "),
        "say why the alias is withdrawn",
        "別名を取り消す理由を書いてください",
    ),
    (lambda: cup().join_team("Ann", " "), "a team needs a name", "チームには名前が必要です"),
    (
        lambda: committed().join_team("Ann", "Red"),
        "the draw of session 1 of 'Cup' is committed: putting 'Ann' in a team would change what it draws over;"
        " reveal it first",
        "'Cup' 第 1 回戦の抽選はコミット済みです: 'Ann' をチームに入れることは抽選の対象を変えてしまいます。"
        "先に抽選を公開してください",
    ),
    (
        lambda: committed().register("Ivy"),
        "the draw of session 1 of 'Cup' is committed: registering 'Ivy' would change what it draws over;"
        " reveal it first",
        "'Cup' 第 1 回戦の抽選はコミット済みです: 'Ivy' の登録は抽選の対象を変えてしまいます。"
        "先に抽選を公開してください",
    ),
    (
        lambda: committed().plan_session(1, [EIGHT[:4], EIGHT[4:]]),
        "the draw of session 1 of 'Cup' is committed: reveal it; a committed draw is not seated otherwise",
        "'Cup' 第 1 回戦の抽選はコミット済みです: 公開してください。"
        "コミットした抽選の回戦は他の方法で席を決められません",
    ),
    (
        lambda: committed().reveal_draw(1, "cd" * 32, EIGHT, [EIGHT[:4], EIGHT[4:]]),
        "that seed is not the one committed for session 1: its digest differs",
        "そのシードは第 1 回戦にコミットしたものではありません: ダイジェストが違います",
    ),
    (lambda: cup().plan_session(0, [EIGHT[:4]]), "sessions are numbered from 1", "回戦は 1 から数えます"),
    (
        lambda: cup().plan_session(1, [EIGHT[:4], EIGHT[4:7]]),
        "session 1's tables seat 4, 3 players: one size for every table",
        "第 1 回戦の卓の人数が 4, 3 人です: すべての卓を同じ人数にしてください",
    ),
    (
        lambda: seated().plan_session(1, [EIGHT[4:], EIGHT[:4]]),
        "session 1 of 'Cup' is already seated and played (m1): detach its matches to seat it again",
        "'Cup' 第 1 回戦は席決め済みで対局もあります(m1): 席を決め直すには対局を外してください",
    ),
    (
        lambda: seated().attach("m2", EIGHT[:4], 1, 2),
        "match 'm2' is played by Ann, Ben, Cho, Dai, but table 2 of session 1 seats Eve, Fay, Gus, Hal",
        "対局 'm2' の選手は Ann, Ben, Cho, Dai ですが、第 1 回戦の 2 卓の席は Eve, Fay, Gus, Hal です",
    ),
    (
        lambda: seated().withdraw("Ann", 0, "ill"),
        "'Ann' is seated in session 1: withdraw after it, or seat the session again",
        "'Ann' は第 1 回戦に席があります: その回戦の後に棄権させるか、その回戦の席を決め直してください",
    ),
    (
        lambda: seated().seat_substitute("Sub", "Ann", "ill"),
        "'Ann' has not withdrawn from 'Cup': withdraw them first (or seat the substitute with the director's override)",
        "'Ann' は 'Cup' を棄権していません: 先に棄権させてください(または運営の判断で補欠を入れてください)",
    ),
    (
        lambda: random_seating(EIGHT[:7], 4),
        "7 players do not fill tables of 4: add 1 or withdraw 3 (or seat substitutes)",
        "7 人では 4 人の卓を埋められません: 1 人追加するか 3 人棄権させてください(または補欠を入れてください)",
    ),
    (
        lambda: staged(0).close_stage(2, EIGHT, EIGHT[:4], dict.fromkeys(EIGHT[:4], 0)),
        "stage 1 of 'Cup' is not closed yet",
        "'Cup' のステージ 1 はまだ締め切られていません",
    ),
    (
        lambda: staged(1).close_stage(1, EIGHT, EIGHT, dict.fromkeys(EIGHT, 0)),
        "stage 1 (a) of 'Cup' is closed already",
        "'Cup' のステージ 1 (a) はすでに締め切られています",
    ),
    (
        lambda: staged(1).declare_format(fmt("final:1")),
        "'Cup' has closed a stage already: its format is kept as it was played",
        "'Cup' はすでにステージを締め切っています: 大会形式は行われたとおりに残ります",
    ),
    (
        lambda: fmt("final:1", substitutes=SubstituteRule("bogus")),
        "substitutes count as-played, fixed, not-counted, not 'bogus'",
        "補欠の数え方は as-played, fixed, not-counted のいずれかです('bogus' ではありません)",
    ),
    (
        lambda: fmt("final:1", team_points="max"),
        "team points are the sum or average of members' points",
        "チームポイントはメンバーのポイントの sum、average のいずれかです",
    ),
    # The bounds of an event, a draw and a format: the domain's field said too.
    (
        lambda: Tournament.create("Big", [f"P{i}" for i in range(4001)]),
        "players: 4,001 listed, at most 4,000 (a thousand tables of four)",
        "選手: 4,001 人が書かれています。最大 4,000 人です(4 人卓 1,000 卓)",
    ),
    (
        lambda: drawn_seating(SEED, [f"P{i}" for i in range(4001)]),
        "players: 4,001 drawn, at most 4,000 (a thousand tables)",
        "選手: 抽選の対象は 4,001 人です。最大 4,000 人です(1,000 卓)",
    ),
    (
        lambda: fmt("heats:600:advance=4", "final:600"),
        "sessions: 1,200 in all, at most 1,000 (the last session's number)",
        "回戦: 合計 1,200 回戦です。最大 1,000 です(最終回戦の番号)",
    ),
    (
        lambda: Tournament.create("a/b"),
        "tournament name: 'a/b' holds '/': a tournament's name is the end of its web address (/tournaments/NAME)",
        "大会名: 'a/b' に '/' が含まれています: 大会名はウェブアドレスの末尾です (/tournaments/NAME)",
    ),
    # The clock: what the minutes are is words in their turn.
    (
        lambda: cup().set_time_limit(1, 0),
        "a time limit is a whole number of minutes from 1 to 1440, not 0",
        "制限時間は 1 から 1440 までの整数の分です(0 ではありません)",
    ),
    (
        lambda: check_minutes(2000, Said("the time added")),
        "the time added is a whole number of minutes from 1 to 1440, not 2000",
        "追加時間は 1 から 1440 までの整数の分です(2000 ではありません)",
    ),
    # A count that is no number of minutes is refused in words too, compiled (mypyc) or not.
    (
        lambda: check_minutes(True, Said("the time added")),
        "the time added is a whole number of minutes from 1 to 1440, not True",
        "追加時間は 1 から 1440 までの整数の分です(True ではありません)",
    ),
    (
        lambda: Clock().set_limit("60"),
        "a time limit is a whole number of minutes from 1 to 1440, not '60'",
        "制限時間は 1 から 1440 までの整数の分です('60' ではありません)",
    ),
    (
        lambda: Clock().check_start(),
        "set the time limit before starting the clock",
        "時計を開始する前に制限時間を設定してください",
    ),
    (
        lambda: Clock(limit=60, started="2026-11-29T09:30:00+00:00").check_start(),
        "the clock was started already, at 2026-11-29T09:30:00+00:00",
        "時計はすでに開始しています(2026-11-29T09:30:00+00:00)",
    ),
]


@pytest.mark.parametrize(("call", "english", "japanese"), DOMAIN, ids=[case[1][:40] for case in DOMAIN])
def test_the_director_s_refusals_in_the_domain_are_said_in_both_languages(
    call: Callable[[], object], english: str, japanese: str
) -> None:
    error = refused(call)
    assert str(error) == english
    assert say(error.said, "ja") == japanese


def test_choices_are_one_of_them_in_either_language() -> None:
    assert str(one_of(["snake"])) == "snake"
    three = Said("seat by {methods}", methods=one_of(["rank", "snake", "draw"]))
    assert str(three) == "seat by rank or snake or draw"
    assert (
        three.spoken(lambda t: {"{choice} or {others}": "{choice}、{others}"}.get(t, t)) == "seat by rank、snake、draw"
    )


@pytest.fixture
def app() -> Iterator[HonbaApp]:
    application = HonbaApp.open(":memory:")
    yield application
    application.close()


def test_the_director_s_use_cases_refuse_in_both_languages(app: HonbaApp) -> None:
    view, tokens = open_view(app), TokenStore(app)
    issuer = tokens.create("director", None)
    create_tournament(app, "Open", EIGHT)
    catch_up(app, view)
    none = refused(lambda: needs_data(app, view, "Open"))
    assert (str(none), say(none.said, "ja")) == (
        "no session of 'Open' is seated yet",
        "'Open' の回戦はまだ席決めされていません",
    )
    method = refused(lambda: director.seat_session(app, tokens, "Open", 1, method="snake"))
    assert (str(method), say(method.said, "ja")) == (
        "the seating is fewest-repeats or random, not 'snake'",
        "席の決め方は fewest-repeats、random のいずれかです('snake' ではありません)",
    )
    director.seat_next(app, view, tokens, "Open", issuer, method="random", seed=3)
    catch_up(app, view)
    playing = refused(lambda: director.seat_next(app, view, tokens, "Open", issuer, method="random"))
    assert str(playing) == (
        "2 tables of an earlier session still playing (Open-s1-t1, Open-s1-t2): confirm to seat session 2 anyway"
    )
    assert say(playing.said, "ja") == (
        "前の回戦の 2 卓がまだ対局中です(Open-s1-t1, Open-s1-t2): それでも第 2 回戦の席を決めるなら確認してください"
    )
    unfinished = refused(lambda: certificates.certificate_body(app, view, "Open"))
    assert say(unfinished.said, "ja") == "'Open' の対局 'Open-s1-t1' は終わっていません: 終了した大会を証明してください"
    shape = refused(lambda: certificates.certificate_from_bytes(b"{}"))
    assert (str(shape), say(shape.said, "ja")) == (
        "the certificate: a certificate has a 'certificate' and a 'signature'",
        "証明書: 証明書には 'certificate' と 'signature' が必要です",
    )
    # What the director's page says of a player who came or went, in the page's language.
    stages.withdraw(app, "Open", "Ann", 1, "ill")
    stages.substitute(app, "Open", "Sub", "Ann", "stands in")
    marks = director.tournament_data(app, view, "Open")["marks"]
    assert {player: [str(m) for m in said] for player, said in marks.items()} == {
        "Ann": ["withdrew after session 1", "replaced by Sub"],
        "Sub": ["substitute for Ann"],
    }
    assert {player: [say(m, "ja") for m in said] for player, said in marks.items()} == {
        "Ann": ["第 1 回戦後に棄権", "補欠 Sub と交代"],
        "Sub": ["Ann の補欠"],
    }
    nobody = refused(lambda: stats_report(view, "Open", "Zed"))
    assert (str(nobody), say(nobody.said, "ja")) == (
        "no player 'Zed' in tournament 'Open'",
        "大会 'Open' に選手 'Zed' はいません",
    )


def test_a_draw_committed_for_tables_of_four_is_not_revealed_under_three_player_rules(app: HonbaApp) -> None:
    create_tournament(app, "Cup", EIGHT)
    commitment = draws.commit_draw(app, "Cup", 1, size=4)
    assert commitment.seed is not None
    seed = commitment.seed
    size = refused(lambda: draws.reveal_draw(app, "Cup", 1, seed, load_preset("tenhou-sanma")))
    assert str(size) == "the draw of session 1 was committed for tables of 4; these rules seat 3"
    assert say(size.said, "ja") == "第 1 回戦の抽選は 4 人卓でコミットしました。このルールは 3 人卓です"
    unrevealed = refused(lambda: draws.verify_draw(app, "Cup", 1))
    assert say(unrevealed.said, "ja") == "'Cup' 第 1 回戦の抽選はコミット済みですが、まだ公開されていません"
    substitutes = refused(lambda: stages.substitute_rule("bogus"))
    assert say(substitutes.said, "ja") == (
        "substitutes は ema、as-played、not-counted、fixed:POINTS (fixed:-30) のいずれかです('bogus' ではありません)"
    )
