"""Tournament pages: list, create, the tournament (standings, rounds, crosstable, players),
its live fragment and exports; and the POST actions of players and organizers.

Adapters only: parse, call one service, report a ``LadderError`` as a message, redirect.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ladder import services
from ladder import tournament_bracket as bracket
from ladder import tournament_presenters as present
from ladder import tournament_tabs as tabs
from ladder.errors import LadderError
from ladder.models import Pairing, Tournament, TournamentInvitation
from ladder.tournament_forms import AddBotForm, AddPlayerForm, TournamentForm
from ttr_site.accounts.models import User

TABS = ("standings", "rounds", "crosstable", "players", "bracket")
EXPORT_FORMATS = ("csv", "json")


def _tournament(request, slug) -> Tournament:
    visible = Tournament.objects.visible_to(request.user).select_related("league", "organizer")
    return get_object_or_404(visible, slug=slug)


def _act(request, tournament: Tournament, call, success: str = "", tab: str = ""):
    try:
        call()
    except LadderError as exc:
        messages.error(request, exc.message)
    else:
        if success:
            messages.success(request, success)
    url = tournament.get_absolute_url()
    return redirect(f"{url}{tab}/" if tab else url)


def tournament_list(request):
    return render(request, "ladder/tournament_list.html", present.tournament_lists(request.user))


@login_required
def tournament_create(request):
    form = TournamentForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        settings = form.settings()
        try:
            tournament = services.tournament_create(by=request.user, **settings)
        except LadderError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Your tournament is announced; registration is open."))
            return redirect(tournament)
    return render(request, "ladder/tournament_form.html", {"form": form})


def tournament_detail(request, slug, tab="standings"):
    if tab not in TABS:
        raise Http404
    tournament = _tournament(request, slug)
    if tab == "bracket" and tournament.format != Tournament.Format.KNOCKOUT:
        raise Http404  # only a knockout has a bracket
    context = _context(request, tournament, tab)
    if request.GET.get("partial"):
        return render(request, "ladder/_tournament_live.html", context)
    return render(request, "ladder/tournament_detail.html", context)


def _context(request, t: Tournament, tab: str) -> dict:
    view = services.snapshot_current(t)
    me = view.entry_of(request.user)
    organizer = t.is_organizer(request.user)
    params = request.GET
    context = {
        "tournament": t,
        "tab": tab,
        "is_organizer": organizer,
        "entry": me,
        "registration_open": present.registration_open(t, view),
        "checkin_open": t.checkin_open(),
        "active_count": present.active_count(view),
        "rounds_played": sum(1 for r in view.rounds if r.status != "paired"),
        "schedule": present.schedule(view, request.user),
        "tiebreak_columns": list(t.tiebreaks),
        "partial_url": _partial_url(request),
        "snapshot_version": view.version,
        "per_page": tabs.PER_PAGE,
        "arena_ended": t.ends_at is not None and t.ends_at <= timezone.now(),
    }
    if tab == "standings":
        context |= tabs.standings_tab(view, me, params, t.tiebreaks)
        context["round_preview"] = tabs.round_preview(view, me)
    elif tab == "rounds":
        context |= tabs.rounds_tab(view, me, params)
    elif tab == "crosstable":
        context |= tabs.crosstable_tab(view, me, params)
    elif tab == "bracket":
        context |= bracket.bracket_tab(view, t, me)
    else:
        context |= tabs.players_tab(view, t, me, params)
    pending = t.invitations.filter(status=TournamentInvitation.Status.PENDING)
    if request.user.is_authenticated:
        context["invitation"] = pending.filter(user=request.user).first()
    if organizer:
        context |= {"add_player_form": AddPlayerForm(), "add_bot_form": AddBotForm()}
        context["invitations"] = pending.select_related("user") if tab == "players" else []
    return context


def _partial_url(request) -> str:
    """The live fragment of this very page (its page, search and round kept)."""
    params = request.GET.copy()
    params["partial"] = "1"
    return f"{request.path}?{params.urlencode()}"


def tournament_export(request, slug, fmt):
    # Only the known formats: ``fmt`` goes into the file name of Content-Disposition, where
    # CR/LF, quotes or an ``.html`` name would be the requester's choice.
    if fmt not in EXPORT_FORMATS:
        raise Http404
    tournament = _tournament(request, slug)
    view = services.snapshot_current(tournament)
    filename = f"{tournament.slug}-results.{fmt}"
    if fmt == "json":
        body = present.export_json(view, tournament)
        response = HttpResponse(body, content_type="application/json")
    else:
        body = present.export_csv(view, tournament.format)
        response = HttpResponse(body, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


# --- players' actions -------------------------------------------------------------------------


@login_required
@require_POST
def tournament_register(request, slug):
    t = _tournament(request, slug)
    return _entered(
        request, t, lambda: services.tournament_register(tournament_id=t.pk, user=request.user)
    )


def _entered(request, t, call):
    """Register, or accept an invitation: the entry's message (with any check-in window to
    keep), or the refusal."""
    try:
        entry = call()
    except LadderError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, present.registered_message(t, entry))
    return redirect(t)


@login_required
@require_POST
def tournament_withdraw(request, slug):
    t = _tournament(request, slug)
    call = lambda: services.tournament_withdraw(tournament_id=t.pk, user=request.user)  # noqa: E731
    return _act(request, t, call, _("You have withdrawn from the tournament."))


@login_required
@require_POST
def tournament_check_in(request, slug):
    t = _tournament(request, slug)
    call = lambda: services.tournament_check_in(tournament_id=t.pk, user=request.user)  # noqa: E731
    return _act(request, t, call, _("You are checked in."))


@login_required
@require_POST
def arena_pause(request, slug):
    t = _tournament(request, slug)
    call = lambda: services.arena_pause(tournament_id=t.pk, user=request.user)  # noqa: E731
    return _act(request, t, call, _("You are paused: no new table until you play on."))


@login_required
@require_POST
def arena_resume(request, slug):
    t = _tournament(request, slug)
    call = lambda: services.arena_resume(tournament_id=t.pk, user=request.user)  # noqa: E731
    return _act(request, t, call, _("You are back: a table opens as soon as enough are free."))


# --- the organizer's actions ------------------------------------------------------------------

CONTROLS = {
    "start": services.tournament_start_now,
    "pause": services.tournament_pause,
    "resume": services.tournament_resume,
    "cancel": services.tournament_cancel,
    "end": services.tournament_end_now,  # an arena: no new table; games in progress count
}


@login_required
@require_POST
def tournament_control(request, slug, action):
    t = _tournament(request, slug)
    service = CONTROLS.get(action)
    if service is None:
        raise Http404
    return _act(request, t, lambda: service(tournament_id=t.pk, by=request.user))


@login_required
@require_POST
def entry_invite(request, slug):
    """The organizer invites a player (who is entered only by accepting)."""
    t = _tournament(request, slug)
    form = AddPlayerForm(request.POST)
    user = None
    if form.is_valid():
        name = form.cleaned_data["username"]
        user = User.objects.filter(username__iexact=name, is_active=True).first()
    if user is None:
        messages.error(request, _("There is no player with that username."))
        return redirect(f"{t.get_absolute_url()}players/")
    call = lambda: services.entry_invite(tournament_id=t.pk, by=request.user, user=user)  # noqa: E731
    done = _("%(name)s is invited and enters on accepting.") % {"name": user.public_name}
    return _act(request, t, call, done, tab="players")


@login_required
@require_POST
def invitation_accept(request, slug):
    t = _tournament(request, slug)
    return _entered(
        request, t, lambda: services.invitation_accept(tournament_id=t.pk, user=request.user)
    )


@login_required
@require_POST
def invitation_decline(request, slug):
    t = _tournament(request, slug)
    call = lambda: services.invitation_decline(tournament_id=t.pk, user=request.user)  # noqa: E731
    return _act(request, t, call, _("You declined the invitation."))


@login_required
@require_POST
def entry_add_bot(request, slug):
    t = _tournament(request, slug)
    form = AddBotForm(request.POST)
    level = form.cleaned_data["level"] if form.is_valid() else ""
    call = lambda: services.entry_add_bot(tournament_id=t.pk, by=request.user, level=level)  # noqa: E731
    return _act(request, t, call, _("A bot is entered."), tab="players")


@login_required
@require_POST
def entry_remove(request, slug, entry_id):
    t = _tournament(request, slug)
    call = lambda: services.entry_remove(tournament_id=t.pk, by=request.user, entry_id=entry_id)  # noqa: E731
    return _act(request, t, call, _("The player is removed."), tab="players")


@login_required
@require_POST
def round_repair(request, slug, number):
    t = _tournament(request, slug)
    call = lambda: services.round_repair(tournament_id=t.pk, by=request.user, number=number)  # noqa: E731
    return _act(request, t, call, _("Round %(n)s is paired again.") % {"n": number}, tab="rounds")


@login_required
@require_POST
def pairing_end(request, slug, pairing_id):
    t = _tournament(request, slug)
    call = lambda: services.pairing_end(pairing_id=_pairing_of(t, pairing_id), by=request.user)  # noqa: E731
    return _act(request, t, call, _("The table is ended; places follow the scores."), tab="rounds")


@login_required
def pairing_result(request, slug, pairing_id):
    """The organizer's form to set or correct one table's result."""
    t = _tournament(request, slug)
    pairing = get_object_or_404(
        Pairing.objects.select_related("round", "table"), pk=pairing_id, round__tournament=t
    )
    if not t.is_organizer(request.user):
        raise Http404
    seats = list(pairing.seats.select_related("entry__user").order_by("seat"))
    if request.method == "POST":
        places = {s.entry_id: request.POST.get(f"place-{s.entry_id}", "") for s in seats}
        scores = {
            s.entry_id: request.POST.get(f"score-{s.entry_id}")
            for s in seats
            if request.POST.get(f"score-{s.entry_id}", "").strip()
        }
        try:
            services.pairing_set_result(
                pairing_id=pairing.pk, by=request.user, places=places, scores=scores
            )
        except LadderError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(
                request, _("The result of table %(n)s is saved.") % {"n": pairing.number}
            )
            return redirect(f"{t.get_absolute_url()}rounds/")
    return render(
        request,
        "ladder/tournament_result.html",
        {"tournament": t, "pairing": pairing, "seats": seats, "sizes": range(1, len(seats) + 1)},
    )


def _pairing_of(t: Tournament, pairing_id: int) -> int:
    if not Pairing.objects.filter(pk=pairing_id, round__tournament=t).exists():
        raise LadderError("pairing_not_found")
    return pairing_id
