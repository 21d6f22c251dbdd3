"""The expert bot is offered wherever bots are (issue 26): a table's bot seats and a
tournament's bot entrants, under its own label."""

import json
import re

import pytest

from games import services
from games.models import BotLevel, Seat
from ladder import services as ladder_services
from tests.ladder.factories import tournament

pytestmark = pytest.mark.django_db


def test_a_table_owner_seats_an_expert_bot(cast):
    table = services.table_create(owner=cast["alice"], seat_count=3, move_seconds=60)
    services.table_add_bot(table_id=table.pk, by=cast["alice"], level="expert")
    seat = Seat.objects.get(table=table, bot_level="expert")
    assert seat.is_bot and seat.label.endswith("(expert bot)")
    assert BotLevel("expert").label == "Expert bot"


def test_an_organizer_enters_an_expert_bot_seeded_above_the_hard_one(cast):
    t = tournament(cast["alice"])
    expert = ladder_services.entry_add_bot(tournament_id=t.pk, by=cast["alice"], level="expert")
    hard = ladder_services.entry_add_bot(tournament_id=t.pk, by=cast["alice"], level="hard")
    assert expert.bot_level == "expert" and expert.rating > hard.rating
    assert expert.label.endswith("(expert bot)")


def test_bot_arena_plays_the_expert_on_a_budget():
    from io import StringIO

    from django.core.management import CommandError, call_command

    from games.engine.bots import expert as expert_bot

    out = StringIO()
    try:
        call_command("bot_arena", games=1, players="expert,hard", workers=1,
                     expert_budget=0.02, stdout=out, stderr=StringIO())  # fmt: skip
    finally:
        expert_bot.set_budget(expert_bot.DEFAULT_BUDGET)
    text = out.getvalue()
    assert "expert budget 0.02 s" in text
    assert any(line.startswith("expert ") for line in text.splitlines())
    with pytest.raises(CommandError, match="expert-budget"):
        call_command("bot_arena", games=1, players="expert,hard", expert_budget=0, stdout=out)


def test_bot_arena_puts_two_budgets_of_the_expert_head_to_head():
    from io import StringIO

    from django.core.management import CommandError, call_command

    out = StringIO()
    call_command("bot_arena", games=2, players="expert@0.02,expert@0.01", workers=1,
                 stdout=out, stderr=StringIO())  # fmt: skip
    text = out.getvalue()
    assert "2 games of expert@0.02,expert@0.01" in text
    assert "expert budget" not in text  # each level has its own
    (line,) = [ln for ln in text.splitlines() if ln.startswith("head to head:")]
    above, decided = re.search(r"above expert@0.01 in (\d+) of (\d+) games", line).groups()
    assert int(above) <= int(decided)
    assert int(decided) + int(re.search(r"level in (\d+)", line).group(1)) == 2
    margin = re.search(r"score expert@0.02 minus expert@0.01 ([+-][\d.]+) a game", line)
    assert margin, line
    for players in ("hard@1,medium", "expert@0,hard", "expert@soon,hard", "wizard,hard"):
        with pytest.raises(CommandError):
            call_command("bot_arena", games=1, players=players, stdout=out)


def test_bot_arena_keeps_each_game_as_it_ends_and_reports_from_the_file(tmp_path):
    from io import StringIO

    from django.core.management import CommandError, call_command

    path = tmp_path / "games.jsonl"
    played = StringIO()
    call_command("bot_arena", games=3, players="hard,medium", workers=1, seed=7,
                 records=str(path), stdout=played, stderr=StringIO())  # fmt: skip
    lines = path.read_text().splitlines()
    assert len(lines) == 3
    first = json.loads(lines[0])
    assert first["lineup"] == ["hard", "medium"] and first["base_seed"] == 7
    assert sorted(json.loads(ln)["game"] for ln in lines) == [0, 1, 2]
    reported = StringIO()
    call_command("bot_arena", report=str(path), stdout=reported)

    # The same games give the same report, the run's time aside.
    def table(text):
        return [ln for ln in text.splitlines() if not ln.startswith("3 games of")]

    assert table(reported.getvalue()) == table(played.getvalue())
    assert "3 games of hard,medium (classic, seed 7" in reported.getvalue()
    # An interrupted run's file: the games it holds are reported.
    path.write_text("\n".join(lines[:2]) + "\n")
    reported = StringIO()
    call_command("bot_arena", report=str(path), stdout=reported)
    assert "2 games of hard,medium" in reported.getvalue()
    for text in ("", "not json\n", "5\n", '{"seats": []}\n'):
        path.write_text(text)
        with pytest.raises(CommandError, match="--report"):
            call_command("bot_arena", report=str(path), stdout=StringIO())
    with pytest.raises(CommandError, match="--records"):
        nowhere = str(tmp_path / "no" / "such" / "dir.jsonl")
        call_command("bot_arena", games=1, players="hard,medium", workers=1,
                     records=nowhere, stdout=StringIO())  # fmt: skip


def test_bot_arena_splits_a_run_and_pairs_two_runs_game_by_game(tmp_path):
    """``--first`` plays a later part of a run (the same deals), ``--report`` takes a run's
    parts together, and ``--against`` compares two runs game by game."""
    from io import StringIO

    from django.core.management import CommandError, call_command

    def play(name, **options):
        path = tmp_path / f"{name}.jsonl"
        options = {"players": "hard,medium", "workers": 1, "seed": 7, **options}
        call_command("bot_arena", records=str(path), stdout=StringIO(), stderr=StringIO(),
                     **options)  # fmt: skip
        return str(path)

    def games(path):  # each game's record, its times aside
        out = []
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
        for line in lines:
            record = json.loads(line)
            del record["elapsed"]
            for seat in record["seats"]:
                del seat["times"]
            out.append(record)
        return out

    def report(*paths, **options):
        out = StringIO()
        call_command("bot_arena", report=list(paths), stdout=out, **options)
        return out.getvalue()

    whole, head = play("whole", games=4), play("head", games=2)
    tail = play("tail", games=2, first=2)
    assert [g["game"] for g in games(tail)] == [2, 3]
    assert games(head) + games(tail) == games(whole)  # the same deals, the same games
    parts, run = report(head, tail), report(whole)
    assert "4 games of hard,medium (classic, seed 7" in parts

    def head_to_head(text):
        return [ln for ln in text.splitlines() if ln.startswith("head to head")]

    assert head_to_head(parts) == head_to_head(run) != []
    (line,) = report(head, tail, against=[whole]).splitlines()[-1:]
    assert "on the 4 deals both played: hard won" in line
    assert "0 only in this, 0 only in that" in line and "a difference of +0.0 a game" in line
    # What cannot be paired or reported together is refused, with the reason.
    other = play("other", games=2, seed=8)
    refusals = [
        ({"against": [other]}, "other deals"),
        ({"against": [play("later", games=2, first=10)]}, "no game number in common"),
    ]
    for options, reason in refusals:
        with pytest.raises(CommandError, match=reason):
            report(whole, **options)
    for paths, reason in (((head, head), "more than once"), ((head, other), "mix seeds")):
        with pytest.raises(CommandError, match=reason):
            report(*paths)
    with pytest.raises(CommandError, match="--against goes with --report"):
        call_command("bot_arena", games=1, against=[whole], stdout=StringIO())
    with pytest.raises(CommandError, match="--first"):
        call_command("bot_arena", games=1, first=-1, stdout=StringIO())


def test_the_expert_on_the_site_reads_the_whole_log_redacted_for_its_seat(cast, monkeypatch):
    """The site hands the expert the whole log (``moves._bot_view``), redacted for its seat,
    so that it knows the cards the others took face up; the other levels get none (it would
    cost them more than their choice)."""
    from games import engine
    from games.engine.bots import expert as expert_bot
    from games.engine.bots import expert_world
    from games.models import Game
    from games.services import moves
    from games.storage import game_state
    from tests.games.moving import player_moves

    seen = []
    real = moves.choose_action

    def spy(level, view, legal, seed=0):
        game = Game.objects.get(pk=game_id)
        seen.append((level, view, engine.view_for(game_state(game, whole_log=True), 1)))
        return real(level, view, legal, seed=seed)

    monkeypatch.setattr(moves, "choose_action", spy)
    expert_bot.set_budget(0.005)
    try:
        for level in ("expert", "medium"):
            table = services.table_create(owner=cast["alice"], seat_count=2, move_seconds=60)
            services.table_add_bot(table_id=table.pk, by=cast["alice"], level=level)
            game = Game.objects.get(table=table)
            game_id = game.pk
            for _ in range(40):
                game.refresh_from_db()
                if 1 in engine.current_seats(engine.from_json(game.state)):
                    services.game_bot_move(game_id=game.pk, expected_version=game.version)
                else:
                    player_moves(game, cast["alice"], level="hard", seed=game.version)
    finally:
        expert_bot.set_budget(expert_bot.DEFAULT_BUDGET)
    experts = [(view, whole) for level, view, whole in seen if level == "expert"]
    assert len(experts) >= 10
    for view, whole in experts:
        assert view == whole and view["log"][0]["seq"] == 0
        assert not any("secret" in e for e in view["log"] if e["seat"] == 0)
    assert any(sum(expert_world.known_cards(view)[0]) for view, _ in experts)
    assert all(view["log"] == [] for level, view, _ in seen if level == "medium")
