"""User errors of accounts (API tokens): expected, shown to the user, never a 500."""

from django.utils.translation import gettext_lazy as _

from ttr_site.errors import UserError, statuses

MESSAGES = {
    "token_not_found": _("There is no such API token."),
    "too_many_tokens": _("You have too many API tokens; revoke one first."),
    "invalid_token_name": _("Give the token a name of up to 60 characters."),
}


class AccountError(UserError):
    """A user error of accounts."""

    messages = MESSAGES
    statuses = statuses({404: {"token_not_found"}})
