"""League pages: list, create, ladder, members, matches, accuracy; and their POST actions.

Adapters only: parse, call one service, report a ``LadderError`` as a message, redirect.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games.models import TimeControl
from ladder import presenters, services
from ladder.errors import LadderError
from ladder.forms import ChallengeForm, LeagueForm, QueueForm
from ladder.models import Challenge, League, Membership, QueueEntry
from ttr_site.accounts.models import User


def _league(request, slug) -> League:
    """The league if the viewer may see it (a private league only to members and staff)."""
    league = get_object_or_404(League, slug=slug)
    if not league.visible_to(request.user):
        raise Http404
    return league


def _act(request, league: League, call, success: str = "", to: str = "league"):
    try:
        call()
    except LadderError as exc:
        messages.error(request, exc.message)
    else:
        if success:
            messages.success(request, success)
    return redirect(to, slug=league.slug)


def league_list(request):
    leagues = League.objects.visible_to(request.user).prefetch_related("memberships")
    mine = set()
    if request.user.is_authenticated:
        mine = set(request.user.league_memberships.values_list("league_id", flat=True))
    return render(request, "ladder/league_list.html", {"leagues": leagues, "mine": mine})


@login_required
def league_create(request):
    form = LeagueForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        ruleset, variant = data["game"].split(":")
        try:
            league = services.league_create(
                by=request.user, name=data["name"], description=data["description"],
                ruleset=ruleset, variant=variant, time_controls=data["time_controls"],
                is_private=data["is_private"],
            )  # fmt: skip
        except LadderError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect(league)
    return render(request, "ladder/league_form.html", {"form": form})


def _time_control(request, league: League) -> str:
    wanted = request.GET.get("tc")
    return wanted if wanted in league.time_controls else league.time_controls[0]


def league_detail(request, slug):
    league = _league(request, slug)
    tc = _time_control(request, league)
    member = league.membership_of(request.user)
    context = {
        "league": league,
        "member": member,
        "is_admin": league.is_admin(request.user),
        "tc": tc,
        "tc_label": TimeControl(tc).label,
        "rows": presenters.ladder_rows(league, tc),
        "tab": "ladder",
    }
    if member is not None:
        others = User.objects.filter(league_memberships__league=league).exclude(pk=request.user.pk)
        context |= {
            "queue_entry": QueueEntry.objects.filter(user=request.user).first(),
            "queue_form": QueueForm(league=league, initial={"time_control": tc}),
            "challenge_form": ChallengeForm(
                league=league, members=others, initial={"time_control": tc}
            ),
            "has_opponents": others.exists(),
            "challenges_in": league.challenges.filter(
                challenged=request.user, status=Challenge.Status.PENDING
            ).select_related("challenger"),
            "challenges_out": league.challenges.filter(
                challenger=request.user, status=Challenge.Status.PENDING
            ).select_related("challenged"),
        }
    return render(request, "ladder/league_detail.html", context)


def league_members(request, slug):
    league = _league(request, slug)
    members = league.memberships.select_related("user").order_by("-role", "user__username")
    return render(
        request,
        "ladder/league_members.html",
        {
            "league": league,
            "members": members,
            "member": league.membership_of(request.user),
            "is_admin": league.is_admin(request.user),
            "tab": "members",
        },
    )


def league_matches(request, slug):
    league = _league(request, slug)
    return render(
        request,
        "ladder/league_matches.html",
        {
            "league": league,
            "matches": presenters.recent_matches(league),
            "member": league.membership_of(request.user),
            "is_admin": league.is_admin(request.user),
            "tab": "matches",
        },
    )


def league_accuracy(request, slug):
    league = _league(request, slug)
    tc = request.GET.get("tc") if request.GET.get("tc") in league.time_controls else None
    return render(
        request,
        "ladder/league_accuracy.html",
        {
            "league": league,
            "tc": tc,
            "figures": presenters.accuracy(league, tc),
            "member": league.membership_of(request.user),
            "tab": "accuracy",
        },
    )


@login_required
@require_POST
def league_join(request, slug):
    league = get_object_or_404(League, slug=slug, is_private=False)
    return _act(
        request,
        league,
        lambda: services.league_join(league_id=league.pk, user=request.user),
        _("Welcome to %(league)s.") % {"league": league.name},
    )


@require_http_methods(["GET", "HEAD", "POST"])
def league_invite(request, slug, token):
    """An invite link: a GET shows the league and changes nothing; its form's POST joins
    (docs/security.md: a link opened by a preview or a prefetch joins nobody)."""
    league = League.objects.filter(slug=slug).first()
    if league is None or not constant_time_compare(token, league.invite_token):
        return render(request, "invite_invalid.html", status=404)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if league.membership_of(request.user) is not None:
        return redirect(league)
    if request.method == "POST":
        try:
            services.league_join(league_id=league.pk, user=request.user, invite_token=token)
        except LadderError as exc:
            messages.error(request, exc.message)
            return redirect(request.path)
        messages.success(request, _("Welcome to %(league)s.") % {"league": league.name})
        return redirect(league)
    return render(request, "ladder/league_invite.html", {"league": league})


@login_required
@require_POST
def league_invite_rotate(request, slug):
    league = _league(request, slug)
    call = lambda: services.league_invite_rotate(league_id=league.pk, by=request.user)  # noqa: E731
    return _act(
        request, league, call, _("A new invite link is ready; the old one no longer works.")
    )


@login_required
@require_POST
def league_leave(request, slug):
    league = get_object_or_404(League, slug=slug)
    try:
        services.league_leave(league_id=league.pk, user=request.user)
    except LadderError as exc:
        messages.error(request, exc.message)
        return redirect(league)
    messages.success(request, _("You left %(league)s.") % {"league": league.name})
    return redirect("leagues")


@login_required
@require_POST
def queue_join(request, slug):
    league = _league(request, slug)
    form = QueueForm(request.POST, league=league)
    if not form.is_valid():
        messages.error(request, _("Choose a time control and a table size."))
        return redirect(league)
    low, high = form.sizes()
    call = lambda: services.queue_join(  # noqa: E731
        league_id=league.pk, user=request.user, time_control=form.cleaned_data["time_control"],
        min_size=low, max_size=high,
    )  # fmt: skip
    return _act(request, league, call, _("You are in the queue; your table starts by itself."))


@login_required
@require_POST
def queue_leave(request, slug):
    league = _league(request, slug)
    call = lambda: services.queue_leave(user=request.user)  # noqa: E731
    return _act(request, league, call, _("You left the queue."))


@login_required
@require_POST
def challenge_create(request, slug):
    league = _league(request, slug)
    members = User.objects.filter(league_memberships__league=league)
    form = ChallengeForm(request.POST, league=league, members=members)
    if not form.is_valid():
        messages.error(request, _("Choose an opponent and a time control."))
        return redirect(league)
    opponent = members.get(pk=form.cleaned_data["opponent"])
    call = lambda: services.challenge_create(  # noqa: E731
        league_id=league.pk, by=request.user, opponent=opponent,
        time_control=form.cleaned_data["time_control"],
    )  # fmt: skip
    return _act(request, league, call, _("Challenge sent."))


@login_required
@require_POST
def challenge_answer(request, slug, challenge_id):
    league = _league(request, slug)
    if request.POST.get("answer") == "accept":
        try:
            table = services.challenge_accept(challenge_id=challenge_id, by=request.user)
        except LadderError as exc:
            messages.error(request, exc.message)
            return redirect(league)
        return redirect(table)
    call = lambda: services.challenge_decline(challenge_id=challenge_id, by=request.user)  # noqa: E731
    return _act(request, league, call)


@login_required
@require_POST
def member_remove(request, slug, user_id):
    league = _league(request, slug)
    call = lambda: services.membership_remove(  # noqa: E731
        league_id=league.pk, by=request.user, user_id=user_id
    )
    done = _("Member removed.")
    if league.is_private:
        done = _(
            "Member removed. The invite link was replaced; share the new one from the league page."
        )
    return _act(request, league, call, done, to="league_members")


@login_required
@require_POST
def member_role(request, slug, user_id):
    league = _league(request, slug)
    role = Membership.Role.ADMIN if request.POST.get("role") == "admin" else Membership.Role.MEMBER
    call = lambda: services.membership_set_role(  # noqa: E731
        league_id=league.pk, by=request.user, user_id=user_id, role=role
    )
    return _act(request, league, call, _("Role changed."), to="league_members")


@login_required
@require_POST
def match_annul(request, slug, match_id):
    league = _league(request, slug)
    call = lambda: services.match_annul(match_id=match_id, by=request.user)  # noqa: E731
    done = _("Match annulled; the ladder is being recalculated without it.")
    return _act(request, league, call, done, to="league_matches")
