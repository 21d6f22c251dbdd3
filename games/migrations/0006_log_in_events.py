"""The game log moves out of the stored state into the events.

Every move rewrote the whole state, and the log was about 90% of it (a 120-move game: 14.4 KB
of 16 KB), so a move cost more the longer the game ran. Each event now holds the raw log
entries it made (``entries``, hidden facts included, redacted on the way out by the engine),
the set-up's entries go into a new event ``seq`` 0 with no action, and the stored state keeps
only the log's length (``log_base``, state version 3). The redacted copies (``public``, ``private``) go in 0007: on PostgreSQL
a column cannot be dropped in the transaction that wrote the rows.

Forwards, for each game: its state's log is split along the events (each event's ``public``
entries name their ``seq``), the entries before the first event become event 0, and the
state is stored without them. Backwards puts the log back into the state and computes
``public``/``private`` again with the engine's redaction. The engine is used here as the
live code uses it: it reads every older state version.
"""

import json

from django.db import migrations, models


def _engine():
    from games import engine

    return engine


def split_logs(apps, schema_editor):
    engine = _engine()
    Game = apps.get_model("games", "Game")
    GameEvent = apps.get_model("games", "GameEvent")
    for game in Game.objects.all().iterator():
        state = engine.from_json(game.state)
        if state.log_base:
            continue  # already split
        log = state.log
        events = list(GameEvent.objects.filter(game=game).order_by("seq"))
        first = min((e["seq"] for e in events[0].public), default=len(log)) if events else len(log)
        for event in events:
            event.entries = [log[e["seq"]] for e in event.public]
            event.save(update_fields=["entries"])
        GameEvent.objects.create(game=game, seq=0, seat=None, action=None, entries=log[:first],
                                 public=[], private={})  # fmt: skip
        engine.detach_log(state)
        game.state = engine.to_json(state)
        game.save(update_fields=["state"])


def join_logs(apps, schema_editor):
    engine = _engine()
    Game = apps.get_model("games", "Game")
    GameEvent = apps.get_model("games", "GameEvent")
    for game in Game.objects.all().iterator():
        state = engine.from_json(game.state)
        events = list(GameEvent.objects.filter(game=game).order_by("seq"))
        engine.attach_log(state, [e for event in events for e in event.entries])
        for event in events:
            if event.seq == 0:
                event.delete()
                continue
            public = engine.redact_entries(event.entries, None)
            private = {}
            for seat in range(state.n):
                entries = engine.redact_entries(event.entries, seat)
                if entries != public:
                    private[str(seat)] = entries
            event.public, event.private = public, private
            event.save(update_fields=["public", "private"])
        data = json.loads(engine.to_json(state))
        data.pop("log_base")
        game.state = json.dumps(dict(data, version=2), sort_keys=True, separators=(",", ":"))
        game.save(update_fields=["state"])


class Migration(migrations.Migration):
    dependencies = [("games", "0005_state_lz4")]

    operations = [
        migrations.AddField(
            model_name="gameevent",
            name="entries",
            field=models.JSONField(
                default=list,
                help_text="the engine's raw log entries of this step (secrets included)",
            ),
        ),
        migrations.AlterField(
            model_name="gameevent",
            name="action",
            field=models.JSONField(help_text="null for the set-up", null=True),
        ),
        migrations.AlterField(
            model_name="gameevent",
            name="public",
            field=models.JSONField(default=list),
        ),
        migrations.AlterField(
            model_name="gameevent",
            name="private",
            field=models.JSONField(default=dict),
        ),
        migrations.RunPython(split_logs, join_logs),
    ]
