"""The hash chain's canonical JSON (cacho.eventlog.chain.canonical_json) is exactly `json.dumps`
with sorted keys, no spaces and UTF-8 text, whatever encoder produces it: a stored hash
must recompute the same on any process and in `verify_match`."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cacho.eventlog.chain import canonical_json

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(), children, max_size=5),
    max_leaves=30,
)


@settings(max_examples=400, deadline=None)
@given(json_values)
def test_canonical_json_is_json_dumps_with_sorted_keys_and_no_spaces(value: Any) -> None:
    expected = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert canonical_json(value) == expected
    assert json.loads(canonical_json(value)) == value


def test_tuples_are_lists_and_other_objects_are_refused() -> None:
    assert canonical_json({"b": (1, (2, "ñ")), "a": None}) == '{"a":null,"b":[1,[2,"ñ"]]}'
    with pytest.raises(TypeError, match="is not JSON serializable"):
        canonical_json({"when": object()})
