"""Pages of the live tables: the lobby, the table page, the replay (the REST API: ``apis.py``)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from games import engine, services
from games.errors import GameError
from games.forms import TableForm
from games.models import Game, GameAnalysis, Table
from games.presenters import table_summary
from games.services import analysis as analysis_services


def lobby(request):
    tables = (
        Table.objects.open_public().select_related("owner").prefetch_related("seats__user")[:50]
    )
    playing = Table.objects.visible_to(request.user).filter(status=Table.Status.PLAYING)[:20]
    mine = []
    if request.user.is_authenticated:
        mine = Table.objects.filter(
            seats__user=request.user, status__in=[Table.Status.OPEN, Table.Status.PLAYING]
        ).distinct()[:20]
    return render(
        request,
        "games/lobby.html",
        {"tables": tables, "playing": playing, "mine": mine, "form": TableForm()},
    )


@login_required
def table_create(request):
    form = TableForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            table = services.table_create(
                owner=request.user,
                ruleset=data["ruleset"],
                variant=data["variant"],
                seat_count=data["seat_count"],
                options=form.options(),
                is_private=data["is_private"],
                **form.clock(),
            )
            if data["bots"]:
                for _ in range(table.seat_count - 1):
                    services.table_add_bot(table_id=table.pk, by=request.user, level=data["bots"])
        except GameError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect(table)
    return render(request, "games/table_create.html", {"form": form})


def _visible_table(request, table_id) -> Table:
    table = get_object_or_404(Table.objects.prefetch_related("seats__user"), pk=table_id)
    if not table.visible_to(request.user):
        raise Http404
    return table


def table_page(request, table_id):
    table = _visible_table(request, table_id)
    summary = table_summary(table, request.user)
    board = engine.board(table.ruleset)
    # The waiting room's bot menu keeps the level of the last bot added (several of one level
    # is the usual wish), not Easy each time.
    levels = [s["bot_level"] for s in summary["seats"] if s.get("bot_level")]
    return render(
        request,
        "games/table.html",
        {"table": table, "summary": summary, "board": board, "bot_level": (levels or ["easy"])[-1]},
    )


@require_http_methods(["GET", "HEAD", "POST"])
def table_invite(request, table_id, token):
    """An invite link: a GET shows the table and changes nothing; its form's POST takes a
    seat (docs/security.md: a link opened by a preview or a prefetch joins nobody)."""
    table = Table.objects.prefetch_related("seats__user").filter(pk=table_id).first()
    if table is None or not constant_time_compare(token, table.invite_token):
        return render(request, "invite_invalid.html", status=404)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if table.seat_of(request.user) is not None:
        return redirect(table)
    if request.method == "POST":
        try:
            services.table_join(table_id=table.pk, user=request.user, invite_token=token)
        except GameError as exc:
            messages.error(request, exc.message)
            return redirect(request.path)
        return redirect(table)
    summary = table_summary(table, request.user)
    return render(request, "games/table_invite.html", {"table": table, "summary": summary})


@login_required
@require_POST
def table_invite_rotate(request, table_id):
    return _table_action(
        request,
        table_id,
        lambda: services.table_invite_rotate(table_id=table_id, by=request.user),
        done=gettext("A new invite link is ready; the old one no longer works."),
    )


def _table_action(request, table_id, call, done=None):
    """Run a service call for the table page: its error, or ``done``, as a message."""
    try:
        call()
    except GameError as exc:
        messages.error(request, exc.message)
    else:
        if done:
            messages.success(request, done)
    return redirect("table", table_id=table_id)


@login_required
@require_POST
def table_join(request, table_id):
    return _table_action(
        request, table_id, lambda: services.table_join(table_id=table_id, user=request.user)
    )


@login_required
@require_POST
def table_leave(request, table_id):
    playing = Table.objects.filter(pk=table_id, status=Table.Status.PLAYING).exists()
    try:
        services.table_leave(table_id=table_id, user=request.user)
    except GameError as exc:
        messages.error(request, exc.message)
        return redirect("table", table_id=table_id)
    if playing:  # a bot plays the seat on: the player may watch the game to its end
        messages.success(request, gettext("You left the game; a bot plays your seat to the end."))
        return redirect("table", table_id=table_id)
    return redirect("play")


@login_required
@require_POST
def table_take_back(request, table_id):
    return _table_action(
        request,
        table_id,
        lambda: services.table_take_back(table_id=table_id, user=request.user),
        done=gettext("Your seat is yours again: you play from its next decision."),
    )


@login_required
@require_POST
def table_add_bot(request, table_id):
    level = request.POST.get("level", "easy")
    return _table_action(
        request,
        table_id,
        lambda: services.table_add_bot(table_id=table_id, by=request.user, level=level),
    )


@login_required
@require_POST
def table_remove_seat(request, table_id):
    try:
        position = int(request.POST.get("position", ""))
    except ValueError:
        messages.error(
            request, GameError("malformed_message", detail=gettext("no seat given")).message
        )
        return redirect("table", table_id=table_id)
    return _table_action(
        request,
        table_id,
        lambda: services.table_remove_seat(table_id=table_id, by=request.user, position=position),
    )


@login_required
@require_POST
def table_start(request, table_id):
    return _table_action(
        request, table_id, lambda: services.table_start(table_id=table_id, by=request.user)
    )


def _replay_table(request, table_id) -> Table:
    """The table if the caller may see its replay (``Table.replay_visible_to``), else 404."""
    table = get_object_or_404(Table.objects.prefetch_related("seats__user"), pk=table_id)
    if not table.replay_visible_to(request.user):
        raise Http404
    return table


def table_replay(request, table_id):
    table = _replay_table(request, table_id)
    game = get_object_or_404(Game, table=table)
    events = list(game.events.filter(seq__gt=0).order_by("seq").values("seq", "seat", "action"))
    # dealt again under the rules the game was played under (docs/rules.md "Rules editions")
    edition = engine.rules_edition(services.game_state(game))
    state = engine.new_game(**table.game_params(game.seed), edition=edition)
    frames = [engine.view_for(state, "all")]
    for event in events:
        engine.apply_action(state, event["seat"], event["action"])
        frames.append(engine.view_for(state, "all"))
    for frame in frames:
        frame.pop("log", None)
    return render(
        request,
        "games/replay.html",
        {
            "table": table,
            "summary": table_summary(table, request.user),
            "board": engine.board(table.ruleset),
            "frames": frames,
            "actions": [e["action"] | {"seat": e["seat"]} for e in events],
            "log": engine.log_for(state, "all"),
            "analysis": analysis_services.analysis_payload(
                GameAnalysis.objects.filter(game=game).first()
            ),
        },
    )


@login_required
@require_POST
def table_analysis(request, table_id):
    """Ask for the game's post-game analysis (the replay page's button, without its script:
    the script asks the API and follows the progress)."""
    try:
        analysis_services.analysis_request(table_id=table_id, user=request.user)
    except GameError as exc:
        if exc.code == "not_found":
            raise Http404 from exc
        messages.error(request, exc.message)
    return redirect("table_replay", table_id=table_id)
