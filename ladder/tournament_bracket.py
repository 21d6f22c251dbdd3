"""The knockout bracket tab: each round's tables as columns, who went through and who went
out, byes, and the final table (read from the standings snapshot)."""


def bracket_tab(view, t, me) -> dict:
    """The template context of the bracket tab."""
    return {}
