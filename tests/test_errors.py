"""Each user error class declares the HTTP status of its own codes (no central table)."""

import pytest

from games.errors import GameError
from ladder.errors import LadderError
from ttr_site.accounts.errors import AccountError

CLASSES = [GameError, LadderError, AccountError]


@pytest.mark.parametrize("kind", CLASSES)
def test_every_declared_status_is_of_a_code_the_class_has(kind):
    assert set(kind.statuses) <= set(kind.messages)
    assert set(kind.statuses.values()) <= {401, 403, 404, 409, 429}


def test_a_code_without_a_declared_status_is_a_bad_request():
    assert GameError("stale_version").http_status == 409
    assert LadderError("tournament_not_found").http_status == 404
    assert AccountError("token_not_found").http_status == 404
    assert GameError("invalid_options", detail="x").http_status == 400
