"""User errors of accounts (API tokens): expected, shown to the user, never a 500."""

from django.utils.translation import gettext_lazy as _

MESSAGES = {
    "token_not_found": _("There is no such API token."),
    "too_many_tokens": _("You have too many API tokens; revoke one first."),
    "invalid_token_name": _("Give the token a name of up to 60 characters."),
}


class AccountError(Exception):
    """A user error of accounts; ``code`` is stable, ``message`` is for people."""

    def __init__(self, code: str, **params):
        self.code = code
        self.params = params
        super().__init__(code)

    @property
    def message(self) -> str:
        return str(MESSAGES[self.code]).format(**self.params)
