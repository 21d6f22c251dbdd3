"""League use cases: create, join, leave, and what league admins do to members."""

from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from games import broadcast, engine
from games.models import TimeControl
from ladder.errors import LadderError
from ladder.models import Challenge, League, Membership, QueueEntry, new_invite_token


def league_create(
    *,
    by,
    name: str,
    ruleset: str,
    variant: str,
    time_controls: list[str],
    description: str = "",
    is_private: bool = False,
) -> League:
    """Open a league; its creator becomes its first admin."""
    name = name.strip()
    _check_settings(name, ruleset, variant, time_controls)
    with transaction.atomic():
        league = League.objects.create(
            name=name,
            slug=free_slug(League, name, fallback="league"),
            description=description.strip(),
            ruleset=ruleset,
            variant=variant,
            time_controls=[tc for tc in TimeControl.values if tc in time_controls],
            is_private=is_private,
            created_by=by,
        )
        Membership.objects.create(league=league, user=by, role=Membership.Role.ADMIN)
    return league


def _check_settings(name, ruleset, variant, time_controls) -> None:
    if not name:
        raise LadderError("invalid_league", detail=_("a league needs a name"))
    if variant not in engine.VARIANTS.get(ruleset, ()):
        raise LadderError("invalid_league", detail=_("unknown map or tickets"))
    if not time_controls or not set(time_controls) <= set(TimeControl.values):
        raise LadderError("invalid_league", detail=_("choose at least one time control"))


def free_slug(model, name: str, *, fallback: str) -> str:
    """A slug for ``name`` that no row of ``model`` uses yet (``-2``, ``-3``... if taken;
    ``new`` is the creation page's address)."""
    base = slugify(name)[:60] or fallback
    slug, n = base, 1
    while slug == "new" or model.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def locked_league(league_id: int) -> League:
    """The league row, locked: one writer per league (its members, queue and ladder)."""
    try:
        return League.objects.select_for_update().get(pk=league_id)
    except League.DoesNotExist:
        raise LadderError("not_found") from None


def league_join(*, league_id: int, user, invite_token: str | None = None) -> Membership:
    """Become a member; a private league needs its invite token."""
    with transaction.atomic():
        league = locked_league(league_id)
        if league.is_private and invite_token != league.invite_token:
            raise LadderError("private_league")
        if league.memberships.filter(user=user).exists():
            raise LadderError("already_member")
        return Membership.objects.create(league=league, user=user)


def league_leave(*, league_id: int, user) -> None:
    """Stop being a member: out of the queue, open challenges withdrawn; ratings stay."""
    with transaction.atomic():
        league = locked_league(league_id)
        member = league.memberships.filter(user=user).first()
        if member is None:
            raise LadderError("not_member")
        _drop_member(league, member)


def membership_remove(*, league_id: int, by, user_id: int) -> None:
    """A league admin removes a member (not themself: they leave instead); the league gets
    a new invite link."""
    with transaction.atomic():
        league = locked_league(league_id)
        if not league.is_admin(by):
            raise LadderError("not_admin")
        member = league.memberships.filter(user_id=user_id).exclude(user=by).first()
        if member is None:
            raise LadderError("not_member")
        _drop_member(league, member)
        # A removed member may still hold the invite link: a new one keeps them out.
        _new_invite(league)


def league_invite_rotate(*, league_id: int, by) -> League:
    """A league admin replaces the invite link: the old one stops working at once."""
    with transaction.atomic():
        league = locked_league(league_id)
        if not league.is_admin(by):
            raise LadderError("not_admin")
        _new_invite(league)
    return league


def _new_invite(league: League) -> None:
    league.invite_token = new_invite_token()
    league.save(update_fields=["invite_token"])


def membership_set_role(*, league_id: int, by, user_id: int, role: str) -> Membership:
    """A league admin makes a member an admin, or an admin a plain member again."""
    if role not in Membership.Role.values:
        raise LadderError("invalid_league", detail=role)
    with transaction.atomic():
        league = locked_league(league_id)
        if not league.is_admin(by):
            raise LadderError("not_admin")
        member = league.memberships.filter(user_id=user_id).first()
        if member is None:
            raise LadderError("not_member")
        member.role = role
        member.save(update_fields=["role"])
    return member


def _drop_member(league: League, member: Membership) -> None:
    QueueEntry.objects.filter(league=league, user_id=member.user_id).delete()
    pending = league.challenges.filter(status=Challenge.Status.PENDING)
    pending.filter(challenger_id=member.user_id).update(status=Challenge.Status.CANCELLED)
    pending.filter(challenged_id=member.user_id).update(status=Challenge.Status.DECLINED)
    member.delete()
    if league.is_private:
        # Their sockets at the league's tables (ones they only watch) close now.
        transaction.on_commit(lambda: broadcast.league_access_changed(league.pk))
