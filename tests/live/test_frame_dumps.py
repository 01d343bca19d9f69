"""A frame's text (cacho.live.reads.dumps) is the text the standard encoder writes, compact
and with non-ASCII text unescaped, character for character (frames hold no floats; a float
reads back the same), whatever orjson would refuse written all the same."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from cacho.live.reads import dumps

scalars = st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text()
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(st.text(max_size=5) | st.integers(0, 9), inner, max_size=5)
    ),
    max_leaves=30,
)


def standard(frame: Any) -> str:
    return json.dumps(frame, separators=(",", ":"), ensure_ascii=False)


@given(frame=st.dictionaries(st.text(max_size=5), values, max_size=6))
def test_a_frame_is_the_standard_encoders_text(frame: dict[str, Any]) -> None:
    assert dumps(frame) == standard(frame)


@given(number=st.floats(allow_nan=False, allow_infinity=False))
def test_a_float_reads_back_the_same(number: float) -> None:
    assert json.loads(dumps({"x": number})) == {"x": number}


def test_non_ascii_text_is_written_as_itself() -> None:
    assert dumps({"t": "chat", "d": {"text": "¡Dudo! ünd 🎲"}}) == '{"t":"chat","d":{"text":"¡Dudo! ünd 🎲"}}'


def test_what_orjson_refuses_is_written_by_the_standard_encoder() -> None:
    for frame in ({"n": 2**64}, {"text": "\ud800"}):
        assert dumps(frame) == standard(frame)
