"""How a table socket passes views on to its client (``ViewStream``, a part of
``games.consumers.TableConsumer``): in version order, each version at most once, and only
the views addressed to its own user.

Views come as pushes, encoded once by the process that made the move
(``games.broadcast.game_changed``): with Redis through this web process's fan-out
(``ttr_site/fanout.py``), which calls ``fanout_push`` and lets the socket's own pump task take
them one after another; in embedded mode as channel-layer messages (``view_push``). Full
frames (a sync) come from the consumer itself (``_send_sync``). Pushes come from whichever
web process or worker made each move, so two moves' pushes can arrive swapped.
"""

import asyncio
import logging
from collections import deque

from django.utils import translation

from ttr_site.outages import service_down

log = logging.getLogger(__name__)

# How long a pushed view that skips a version waits for the missing one before the client is
# sent a full frame instead; pushes overtake each other by milliseconds.
HOLD_SECONDS = 0.5


def _log_failure(task: asyncio.Task) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning("could not queue a message to a socket: %r", task.exception())


class ViewStream:
    """The view half of a table socket. The consumer provides ``user``, ``channel_layer``,
    ``channel_name``, ``send``, ``_language``, ``_follow_access`` (move to the seat its user
    holds now, or close) and ``_send_sync`` (a full frame), calls ``views_begin`` at connect
    and sets ``view_joined`` once it joins its view group."""

    def views_begin(self) -> None:
        """The view state of a new socket: nothing sent, held or queued, no view group."""
        self.sent_version = -1  # the newest view version this client was sent
        self.early: dict[int, str] = {}  # pushed views waiting for the version before them
        self.outbox: deque = deque()  # fanned-out views not yet taken (``fanout_push``)
        self.pump: asyncio.Task | None = None
        self.view_joined: str | None = None  # the view group whose pushes this socket gets

    def fanout_push(self, group: str, event: dict) -> None:
        """A view push of ``group`` from this process's fan-out (``ttr_site/fanout.py``):
        called by its reader, which must not wait on any one socket, so the view is queued
        here and taken by this socket's own pump task, one after another."""
        self.outbox.append((group, event))
        if self.pump is None:
            self.pump = asyncio.get_running_loop().create_task(self._pump_views())

    async def _pump_views(self) -> None:
        try:
            while self.outbox:
                group, event = self.outbox.popleft()
                if group != self.view_joined:
                    continue  # pushed to the group this socket has since left
                try:
                    await self._take_view(event)
                except Exception as exc:
                    # The socket closed under it, or an outage: the client resyncs.
                    if (service := service_down(exc)) is None:
                        log.info("a view push was not sent: %r", exc)
                    else:
                        log.warning("a view push met an outage (%s): %r", service, exc)
        finally:
            self.pump = None

    async def view_push(self, event):
        """A view push through the channel layer (embedded mode: no fan-out)."""
        await self._take_view(event)

    async def _take_view(self, event):
        # Moves are made in order (one writer per table) but pushed after commit by whichever
        # process made them, so a push can overtake the one before it. Send views in order:
        # drop one the client already has, hold one that skips a version until the missing
        # one comes (then both, in order) or, after HOLD_SECONDS, send a full frame instead.
        version, text = event["version"], event["text"]
        holder = event.get("holder")
        if holder is not None and holder != getattr(self.user, "pk", None):
            # A seat's view for whoever holds the seat now, not this socket's user: this
            # socket's user gave the seat up or moved to another. Never pass it on.
            with translation.override(self._language()):  # its frames, if it is closed
                await self._follow_access()
            return
        if version <= self.sent_version:
            return
        if version > self.sent_version + 1:
            if not self.early:
                asyncio.get_running_loop().call_later(HOLD_SECONDS, self._hold_expired)
            self.early[version] = text
            return
        await self._send_view(version, text)
        while (following := self.sent_version + 1) in self.early:
            await self._send_view(following, self.early.pop(following))

    async def _send_view(self, version: int, text: str) -> None:
        """Send a view (already encoded) unless the client has a newer one."""
        if version < self.sent_version:
            return
        self.sent_version = version
        self.early = {v: t for v, t in self.early.items() if v > version}
        await self.send(text_data=text)

    def _hold_expired(self) -> None:
        # Handled in the consumer's own message loop, in turn with the pushes.
        message = {"type": "views.overdue"}
        task = asyncio.ensure_future(self.channel_layer.send(self.channel_name, message))
        task.add_done_callback(_log_failure)

    async def views_overdue(self, event):
        if self.early:
            await self._send_sync()
