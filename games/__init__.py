"""Games: the rules engine (``games.engine``, pure) and the live tables built around it."""
