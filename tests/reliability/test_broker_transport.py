"""The production broker transport (ttr_site.broker) on a real Redis: a late ack or a restore
after the connection is gone leaves the message to the visibility timeout instead of stopping
the worker."""

import os
import uuid

import pytest
from kombu import Connection, Exchange, Queue

pytestmark = pytest.mark.redis


@pytest.fixture
def queue_name():
    return f"ttr-test-broker-{uuid.uuid4().hex[:8]}"


def test_an_ack_after_the_connection_is_gone_is_left_to_the_visibility_timeout(queue_name):
    url = os.environ["REDIS_URL"]
    queue = Queue(queue_name, Exchange(queue_name), routing_key=queue_name)
    with Connection(url, transport="ttr_site.broker:Transport") as connection:
        connection.Producer().publish({"n": 1}, exchange=queue.exchange,
                                      routing_key=queue_name, declare=[queue])  # fmt: skip
        channel = connection.channel()
        message = queue(channel).get(no_ack=False)
        assert message is not None and message.payload == {"n": 1}
        # What kombu leaves when it collects a lost connection: no connection, no pool.
        channel.connection, channel._pool = None, None
        message.ack()  # kombu alone: AttributeError, and the worker stops
        channel.qos.restore_unacked()  # closing the channel next must not fail either
    with Connection(url, transport="ttr_site.broker:Transport") as connection:
        client = connection.default_channel.client
        # Never acknowledged in Redis: the visibility timeout will hand it out again.
        assert client.hexists(connection.default_channel.unacked_key, message.delivery_tag)
        client.hdel(connection.default_channel.unacked_key, message.delivery_tag)
        client.zrem(connection.default_channel.unacked_index_key, message.delivery_tag)
        client.delete(queue_name)
