"""The bot of Cacho Alalay: one policy for the live bots, the tournament bots, the benches
and the tests.

`bot_payload(view, rng)` answers with the payload the entry's client would send, from
its view (`view(state, viewer)`, as it arrives over the wire or not): throw; after throw
1, score or re-roll at even odds (re-rolling a random half of the dice, at most four
kept) and always re-roll when nothing scores; after throw 2, turn a random die where a
turn is compulsory, and another with a chance of 3 in 10 where one is allowed; then
score the box auto-play would (§9 P-2), or scratch the one it would. It never abandons.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cacho.engine.alalay.policy import scratch_box
from cacho.engine.alalay.scorecard import BOX_INDEX
from cacho.engine.bots import BotRandom, pick


def bot_payload(view: Mapping[str, Any], rng: BotRandom) -> dict[str, Any] | None:
    """The bot's next payload for the entry this view is for (None: not its turn)."""
    turn = view.get("turn")
    if not turn or view.get("finished") or turn.get("entry") != view.get("you"):
        return None
    legal = turn["legal"]
    if legal["throw"]:
        return {"type": "throw"}
    scoring: list[str] = list(legal["score"])
    if legal["reroll"] and (not scoring or rng.random() < 0.5):
        keep = [die for die in turn["dice"] if rng.random() < 0.5][:4]
        return {"type": "reroll", "keep": keep}
    positions: list[int] = list(legal["turn"])
    if positions and (turn["must_turn"] or rng.random() < 0.3):
        return {"type": "turn", "position": pick(rng, positions)}
    if scoring:
        hints: Mapping[str, int] = turn["hints"]
        best = max(scoring, key=lambda box: (hints[box], -BOX_INDEX[box]))
        return {"type": "score", "box": best}
    if legal["scratch"]:
        return {"type": "scratch", "box": scratch_box(legal["scratch"])}
    return None
