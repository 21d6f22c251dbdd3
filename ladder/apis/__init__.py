"""REST adapters of the ladder: leagues, ladders and the queue (``leagues``), tournaments
(``tournaments``). Thin: parse, call one service, serialize."""
