"""Signals other apps listen to (the ladder records results from ``game_finished``)."""

from django.dispatch import Signal

# Sent after the commit that ended a game. Arguments: ``table_id`` (int), ``result`` (the
# engine's ``final_result``), ``abandoned`` (seat positions handed to a bot: they rank last).
game_finished = Signal()
