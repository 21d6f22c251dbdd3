"""Direct challenges between league members: challenge, then accept, and a rated table starts."""

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.models import Table
from ladder.errors import LadderError
from ladder.models import Challenge
from ladder.services.leagues import locked_league
from ladder.services.queue import rated_table_start


def challenge_create(*, league_id: int, by, opponent, time_control: str) -> Challenge:
    """Challenge another member to a rated two-player game; they are told at once."""
    with transaction.atomic():
        league = locked_league(league_id)
        members = set(league.memberships.values_list("user_id", flat=True))
        if by.pk not in members:
            raise LadderError("not_member")
        if opponent.pk not in members or opponent.pk == by.pk:
            raise LadderError("invalid_challenge", detail=_("challenge another member"))
        if time_control not in league.time_controls:
            raise LadderError("invalid_challenge", detail=_("this league does not play that clock"))
        open_ = league.challenges.filter(status=Challenge.Status.PENDING)
        if open_.filter(challenger=by, challenged=opponent).exists():
            raise LadderError("invalid_challenge", detail=_("you have already challenged them"))
        challenge = Challenge.objects.create(
            league=league, challenger=by, challenged=opponent, time_control=time_control
        )
        _tell(
            opponent,
            gettext_lazy("{who} challenges you to a rated game in {league}."),
            league.get_absolute_url(),
            who=by.public_name,
            league=league.name,
        )
    return challenge


def _locked_challenge(challenge_id: int) -> Challenge:
    challenge = (
        Challenge.objects.select_for_update().filter(pk=challenge_id).select_related("league")
    ).first()
    if challenge is None:
        raise LadderError("invalid_challenge", detail=_("no such challenge"))
    return challenge


def challenge_accept(*, challenge_id: int, by) -> Table:
    """The challenged member accepts: a rated table for the two starts with no more clicks."""
    with transaction.atomic():
        found = Challenge.objects.filter(pk=challenge_id).values_list("league_id", flat=True)
        league_id = found.first()
        if league_id is None:
            raise LadderError("invalid_challenge", detail=_("no such challenge"))
        league = locked_league(league_id)
        challenge = _locked_challenge(challenge_id)
        if challenge.challenged_id != by.pk:
            raise LadderError("invalid_challenge", detail=_("this challenge is not for you"))
        if challenge.status != Challenge.Status.PENDING:
            raise LadderError("challenge_closed")
        if not league.memberships.filter(user_id=challenge.challenger_id).exists():
            raise LadderError("not_member")
        table = rated_table_start(
            league=league, users=[challenge.challenger, by], tc=challenge.time_control
        )
        challenge.status = Challenge.Status.ACCEPTED
        challenge.table = table
        challenge.save(update_fields=["status", "table"])
    return table


def challenge_decline(*, challenge_id: int, by) -> Challenge:
    """The challenged member declines, or the challenger withdraws."""
    with transaction.atomic():
        challenge = _locked_challenge(challenge_id)
        if by.pk not in (challenge.challenger_id, challenge.challenged_id):
            raise LadderError("invalid_challenge", detail=_("this challenge is not for you"))
        if challenge.status != Challenge.Status.PENDING:
            raise LadderError("challenge_closed")
        withdrawn = by.pk == challenge.challenger_id
        challenge.status = Challenge.Status.CANCELLED if withdrawn else Challenge.Status.DECLINED
        challenge.save(update_fields=["status"])
        if not withdrawn:
            _tell(
                challenge.challenger,
                gettext_lazy("{who} declined your challenge."),
                challenge.league.get_absolute_url(),
                who=by.public_name,
            )
    return challenge


def _tell(user, text, url: str, **params) -> None:
    from ttr_site.accounts.services import notification_send

    notification_send(user=user, text=text, params=params, url=url)
