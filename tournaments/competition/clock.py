"""The round clock, as pure data: a length, the time used before the last start or resume,
and since when it runs. Time is an input (milliseconds since the epoch); nothing here reads
a clock.

A clock is idle (never started), running or paused. It may be extended while started
(a negative extension takes time back, never below what is used already); it runs on
past zero (overtime, a negative remaining time) until the organiser stops the round's
play: a club evening ends a round by the director's call, not by the clock itself.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from tournaments.competition.errors import CompetitionError

IDLE = "idle"
RUNNING = "running"
PAUSED = "paused"
MAX_SECONDS = 12 * 3600


@dataclass(frozen=True)
class Clock:
    seconds: int | None = None  # its length, extensions included (None: never started)
    used_ms: int = 0  # time used before `running_since`
    running_since_ms: int | None = None

    @property
    def state(self) -> str:
        if self.seconds is None:
            return IDLE
        return RUNNING if self.running_since_ms is not None else PAUSED

    def used(self, now_ms: int) -> int:
        """Milliseconds used so far."""
        running = 0 if self.running_since_ms is None else max(0, now_ms - self.running_since_ms)
        return self.used_ms + running

    def remaining(self, now_ms: int) -> int:
        """Milliseconds left (negative in overtime); 0 when idle."""
        if self.seconds is None:
            return 0
        return self.seconds * 1000 - self.used(now_ms)


def _length(seconds: int) -> int:
    if type(seconds) is not int or not 1 <= seconds <= MAX_SECONDS:
        raise CompetitionError("clock-time-invalid", f"a round clock runs 1 to {MAX_SECONDS} seconds")
    return seconds


def start(clock: Clock, seconds: int, now_ms: int) -> Clock:
    if clock.state != IDLE:
        raise CompetitionError("clock-started", "the clock has been started already")
    return Clock(_length(seconds), 0, now_ms)


def pause(clock: Clock, now_ms: int) -> Clock:
    if clock.state != RUNNING:
        raise CompetitionError("clock-not-running", "the clock is not running")
    return Clock(clock.seconds, clock.used(now_ms), None)


def resume(clock: Clock, now_ms: int) -> Clock:
    if clock.state != PAUSED:
        raise CompetitionError("clock-not-paused", "the clock is not paused")
    return replace(clock, running_since_ms=now_ms)


def extend(clock: Clock, seconds: int, now_ms: int) -> Clock:
    """More time (or less, never below what is used already, nor to nothing)."""
    if clock.seconds is None:
        raise CompetitionError("clock-not-started", "the clock has not been started")
    if type(seconds) is not int or seconds == 0 or abs(seconds) > MAX_SECONDS:
        raise CompetitionError(
            "clock-time-invalid", f"an extension is 1 to {MAX_SECONDS} seconds, either way"
        )
    used_s = -(-clock.used(now_ms) // 1000)
    total = clock.seconds + seconds
    if total < max(1, used_s) or total > MAX_SECONDS:
        raise CompetitionError("clock-time-invalid", "the clock cannot end before the time already used")
    return replace(clock, seconds=total)


def reset(clock: Clock) -> Clock:
    if clock.seconds is None:
        raise CompetitionError("clock-not-started", "the clock has not been started")
    return Clock()
