"""Turn notices of turn-based games: the players whose turn it is are told in the site and by
e-mail (queued after a move by ``games.effects``; the task is ``games.tasks.notify_turn``)."""

from django.conf import settings
from django.core.mail import send_mail
from django.utils import translation
from django.utils.translation import gettext as _

from games.models import Game, Seat
from ttr_site.accounts.services import notification_send


def game_notify_turn(*, table_id: int, version: int, positions: list[int]) -> None:
    """Tell the players of ``positions`` it is their turn, unless the game moved on."""
    game = Game.objects.filter(table_id=table_id).first()
    if game is None or game.version != version:
        return  # they already moved
    table = game.table
    url = settings.SITE_URL + table.get_absolute_url()
    for seat in Seat.objects.filter(table=table, position__in=positions).select_related("user"):
        user = seat.user
        if user is None or seat.abandoned:
            continue
        notification_send(
            user=user,
            text=translation.gettext_lazy("It is your turn at table %(id)s."),
            params={"id": table_id},  # translated when read, in the reader's language
            url=table.get_absolute_url(),
        )
        if user.email:
            with translation.override(user.language or None):
                send_mail(
                    _("[ttr] Your turn at table %(id)s") % {"id": table_id},
                    _("It is your turn. Play here: %(url)s") % {"url": url},
                    None,
                    [user.email],
                    fail_silently=True,
                )
