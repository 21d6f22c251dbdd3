"""The one shape of a user error (games, ladder, accounts): expected, shown to people, never
a 500. Each app lists its codes and texts; adapters (sockets, pages, the API) report any of
them the same way."""


class UserError(Exception):
    """A stable ``code`` for clients and translations, and a ``message`` for people: the
    subclass's ``messages[code]`` filled in with ``params``."""

    messages: dict = {}

    def __init__(self, code: str, **params):
        self.code = code
        self.params = params
        super().__init__(code)

    @property
    def message(self) -> str:
        return str(self.messages[self.code]).format(**{k: str(v) for k, v in self.params.items()})
