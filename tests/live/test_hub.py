"""The per-process hub: one group membership per match, notices fanned out to the
local sockets of that match only."""

from __future__ import annotations

import asyncio

from channels.layers import InMemoryChannelLayer

from cacho.live.hub import Hub


async def next_or_none(inbox: asyncio.Queue[dict[str, object]]) -> dict[str, object] | None:
    try:
        return await asyncio.wait_for(inbox.get(), 0.2)
    except TimeoutError:
        return None


def test_the_hub_joins_a_group_once_and_fans_out_to_its_sockets() -> None:
    async def scenario() -> None:
        layer = InMemoryChannelLayer()
        hub = Hub(layer)
        first: asyncio.Queue[dict[str, object]] = asyncio.Queue()
        second: asyncio.Queue[dict[str, object]] = asyncio.Queue()
        elsewhere: asyncio.Queue[dict[str, object]] = asyncio.Queue()
        await hub.join("match-a", first)
        await hub.join("match-a", second)
        await hub.join("match-b", elsewhere)
        assert len(layer.groups["match-a"]) == 1  # one member: the hub's channel

        notice = {"type": "match.events", "group": "match-a", "version": 1}
        await layer.group_send("match-a", notice)
        assert await next_or_none(first) == notice
        assert await next_or_none(second) == notice
        assert await next_or_none(elsewhere) is None

        await hub.leave("match-a", first)
        await layer.group_send("match-a", {**notice, "version": 2})
        assert await next_or_none(first) is None
        assert (await next_or_none(second) or {}).get("version") == 2

        await hub.leave("match-a", second)
        assert not layer.groups.get("match-a")  # the last socket gone, the hub left the group
        await hub.leave("match-a", second)  # leaving twice is harmless

    asyncio.run(scenario())
