"""The one shape of a user error (games, ladder, accounts): expected, shown to people, never
a 500. Each app lists its codes and texts; adapters (sockets, pages, the API) report any of
them the same way."""


class UserError(Exception):
    """A stable ``code`` for clients and translations, and a ``message`` for people: the
    subclass's ``messages[code]`` filled in with ``params``. Each subclass also declares the
    HTTP status of its codes in the API (``statuses``; any other code is a 400), so no
    central table has to learn every app's codes."""

    messages: dict = {}
    statuses: dict[str, int] = {}

    def __init__(self, code: str, **params):
        self.code = code
        self.params = params
        super().__init__(code)

    @property
    def http_status(self) -> int:
        return self.statuses.get(self.code, 400)

    @property
    def message(self) -> str:
        return str(self.messages[self.code]).format(**{k: str(v) for k, v in self.params.items()})


def statuses(by_status: dict[int, set[str]]) -> dict[str, int]:
    """``{409: {"a", "b"}}`` as ``{"a": 409, "b": 409}``: codes listed by status read best."""
    return {code: http for http, codes in by_status.items() for code in codes}
