"""The Celery broker transport in production: kombu's Redis transport, made to survive a
Redis restart.

On a lost broker connection Celery 5.7 collects the connection and then closes it; closing
the channel tries to put its unacknowledged messages back on the queue through that
connection, which no longer knows its own address (``AttributeError: 'NoneType' object has
no attribute 'hostname'``), and the worker stops with "Unrecoverable error". Here that
restore is skipped when the connection is gone: the messages stay in Redis' unacked set,
where the visibility timeout returns them, and the game's work does not wait for them anyway
(deadlines live on the game row and the beat sweep handles any that pass).
"""

import logging

from kombu.transport import redis

log = logging.getLogger(__name__)


class QoS(redis.QoS):
    def _connection_gone(self) -> bool:
        connection = getattr(self.channel, "connection", None)
        return connection is None or connection.client is None

    def restore_unacked(self, client=None):
        if client is None and self._connection_gone():
            log.warning(
                "broker connection lost: %d unacknowledged message(s) left to the visibility "
                "timeout",
                len(self._delivered),
            )
            self._delivered.clear()
            return
        return super().restore_unacked(client)

    def ack(self, delivery_tag):
        # A task that finishes while the connection is gone (acks are late) cannot reach
        # Redis to say so; kombu would build a client from the closed channel and the worker
        # would stop ("Unrecoverable error", seen in the Redis restart drill). The message
        # stays in the unacked set and the visibility timeout returns it; run again, a game
        # task finds its version gone and does nothing.
        if self._connection_gone():
            log.warning("broker connection lost: message %s left unacknowledged", delivery_tag)
            redis.virtual.QoS.ack(self, delivery_tag)
            return
        super().ack(delivery_tag)


class Channel(redis.Channel):
    QoS = QoS


class Transport(redis.Transport):
    Channel = Channel
