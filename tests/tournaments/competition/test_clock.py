"""The round clock as pure data: any sequence of actions at increasing times leaves the
time left equal to the length minus the time it ran; a paused clock does not move; a
refused action changes nothing."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.competition import clock as core
from tournaments.competition.errors import CompetitionError

ACTIONS = st.lists(
    st.tuples(
        st.sampled_from(["start", "pause", "resume", "extend", "reset"]),
        st.integers(min_value=0, max_value=3_600_000),  # milliseconds after the previous action
        st.integers(min_value=-7200, max_value=7200),  # seconds, for start and extend
    ),
    max_size=30,
)


def apply(clock: core.Clock, action: str, seconds: int, now: int) -> core.Clock:
    if action == "start":
        return core.start(clock, seconds, now)
    if action == "pause":
        return core.pause(clock, now)
    if action == "resume":
        return core.resume(clock, now)
    if action == "extend":
        return core.extend(clock, seconds, now)
    return core.reset(clock)


def refused(clock: core.Clock, action: str, seconds: int, now: int) -> bool:
    """When each action is refused, said independently of the module."""
    if action == "start":
        return clock.state != core.IDLE or not 1 <= seconds <= core.MAX_SECONDS
    if action == "pause":
        return clock.state != core.RUNNING
    if action == "resume":
        return clock.state != core.PAUSED
    if action == "reset":
        return clock.state == core.IDLE
    if clock.state == core.IDLE or seconds == 0:
        return True
    used_seconds = -(-clock.used(now) // 1000)
    return not max(1, used_seconds) <= (clock.seconds or 0) + seconds <= core.MAX_SECONDS


@settings(max_examples=300, deadline=None)
@given(ACTIONS, st.integers(min_value=0, max_value=3_600_000))
def test_the_time_left_is_the_length_minus_the_time_it_ran(
    actions: list[tuple[str, int, int]], tail: int
) -> None:
    clock, now, ran, length = core.Clock(), 10**12, 0, None
    for action, wait, seconds in actions:
        if clock.state == core.RUNNING:
            ran += wait
        now += wait
        try:
            after = apply(clock, action, seconds, now)
        except CompetitionError:
            assert refused(clock, action, seconds, now), (clock, action, seconds)
            continue
        assert not refused(clock, action, seconds, now), (clock, action, seconds)
        if action == "start":
            ran, length = 0, seconds
        elif action == "extend":
            length = (length or 0) + seconds
        elif action == "reset":
            ran, length = 0, None
        clock = after
        assert clock.remaining(now) == (0 if length is None else length * 1000 - ran)
    later = now + tail
    if clock.state == core.PAUSED:
        assert clock.remaining(later) == clock.remaining(now)
    if clock.state == core.RUNNING:
        assert clock.remaining(later) == clock.remaining(now) - tail
    if clock.seconds is not None:
        assert 1 <= clock.seconds <= core.MAX_SECONDS


def test_an_extension_never_ends_the_clock_before_the_time_used() -> None:
    clock = core.start(core.Clock(), 600, 0)
    with pytest.raises(CompetitionError) as caught:
        core.extend(clock, -301, 300_000)
    assert caught.value.code == "clock-time-invalid"
    assert core.extend(clock, -300, 300_000).remaining(300_000) == 0
    for bad in (0, core.MAX_SECONDS + 1, True):
        with pytest.raises(CompetitionError):
            core.start(core.Clock(), bad, 0)  # type: ignore[arg-type]
