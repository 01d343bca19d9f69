from __future__ import annotations

import pytest

from tournaments.competition.errors import CompetitionError
from tournaments.competition.stages import (
    FINAL_TABLE,
    ROUND_ROBIN,
    SINGLE_ELIMINATION,
    SWISS,
    Advancement,
    GroupFinish,
    StageSpec,
    advancing,
    check_chain,
    final_order,
    overall_order,
    seeds,
)

GROUPS = StageSpec("groups", ROUND_ROBIN, groups=3, advancement=Advancement(per_group=2, wildcards=2))
PLAYOFFS = StageSpec("playoffs", SINGLE_ELIMINATION)


def test_groups_then_playoffs() -> None:
    assert check_chain([GROUPS, PLAYOFFS], 12) == (12, 8)
    finished = [
        GroupFinish(1, ("a1", "a2", "a3", "a4"), (9, 6, 3, 0)),
        GroupFinish(2, ("b1", "b2", "b3", "b4"), (9, 7, 4, 0)),
        GroupFinish(3, ("c1", "c2", "c3", "c4"), (6, 6, 5, 1)),
    ]
    qualified = advancing(GROUPS, finished)
    assert seeds(qualified) == ("a1", "b1", "c1", "b2", "a2", "c2", "c3", "b3")
    assert [q.wildcard for q in qualified] == [False] * 6 + [True] * 2
    assert qualified[0].place == 1 and qualified[-1].place == 3


def test_entries_of_one_place_are_seeded_by_their_keys_then_group_order() -> None:
    """With keys (points, then the tiebreaks), a tie in points is split by the next criterion,
    and so are the wildcards; an entry without a key, or a full tie, keeps group order."""
    finished = [
        GroupFinish(1, ("a1", "a2", "a3", "a4")),
        GroupFinish(2, ("b1", "b2", "b3", "b4")),
        GroupFinish(3, ("c1", "c2", "c3", "c4")),
    ]
    keys = {
        "a1": (9, 2),
        "b1": (9, 5),
        "c1": (9, 5),  # b1 and c1 tie all the way: group order
        "a2": (6, 1),
        "b2": (6, 4),
        "c2": (7, 0),
        "a3": (3, 9),
        "b3": (3, 8),
        "c3": (4, 0),
    }
    qualified = advancing(GROUPS, finished, keys)
    assert seeds(qualified) == ("b1", "c1", "a1", "c2", "b2", "a2", "c3", "a3")
    assert [q.wildcard for q in qualified] == [False] * 6 + [True] * 2
    assert seeds(advancing(GROUPS, finished, keys)) == overall_order(finished, keys)[:8]


def test_swiss_then_final_table() -> None:
    swiss = StageSpec("swiss", SWISS, table_size=6, rounds=5, advancement=Advancement(overall=6))
    final = StageSpec("final", FINAL_TABLE, table_size=6)
    assert check_chain([swiss, final], 40) == (40, 6)
    qualified = advancing(swiss, [GroupFinish(1, tuple(f"e{i}" for i in range(40)))])
    assert seeds(qualified) == tuple(f"e{i}" for i in range(6))


def test_chain_checks() -> None:
    with pytest.raises(CompetitionError):
        check_chain([], 10)
    with pytest.raises(CompetitionError):
        check_chain([PLAYOFFS, PLAYOFFS], 8)  # a non-final stage must send entries on
    with pytest.raises(CompetitionError):
        check_chain([GROUPS], 12)  # the last stage sends nobody on
    with pytest.raises(CompetitionError):
        check_chain([StageSpec("x", "lottery")], 4)
    with pytest.raises(CompetitionError):
        check_chain([StageSpec("ko", SINGLE_ELIMINATION, groups=2)], 8)
    with pytest.raises(CompetitionError):
        check_chain([StageSpec("final", FINAL_TABLE)], 8)
    with pytest.raises(CompetitionError):
        check_chain([GROUPS, PLAYOFFS], 5)
    with pytest.raises(CompetitionError):
        advancing(GROUPS, [GroupFinish(1, ("a",))])


def test_overall_order_by_place_in_group_then_the_better_standing() -> None:
    finished = [GroupFinish(1, ("a1", "a2", "a3", "a4")), GroupFinish(2, ("b1", "b2", "b3"))]
    keys = {
        "a1": (6, 2),
        "b1": (6, 3),  # equal points: the first tiebreak decides
        "a2": (3, 0),
        "b2": (4, 0),  # more points first
        "a3": (1, 5),
        "b3": (1, 5),  # equal on everything: group order
        "a4": (0, 0),
    }
    assert overall_order(finished, keys) == ("b1", "a1", "b2", "a2", "a3", "b3", "a4")
    # Without keys, the groups' scores compare entries of the same place.
    scored = [GroupFinish(1, ("a1", "a2"), (1, 5)), GroupFinish(2, ("b1", "b2"), (2, 5))]
    assert overall_order(scored) == ("b1", "a1", "a2", "b2")
    assert overall_order([GroupFinish(1, ("x", "y"))]) == ("x", "y")
    with pytest.raises(CompetitionError):
        overall_order([GroupFinish(1, ("x",)), GroupFinish(2, ("x",))])


def test_final_order_last_stage_first_then_earlier_eliminations() -> None:
    groups = ["a", "b", "c", "d", "e", "f", "g", "h"]
    semis = ["c", "a", "e", "b"]
    final = ["a", "c"]
    assert final_order([groups, semis, final]) == ("a", "c", "e", "b", "d", "f", "g", "h")
    assert final_order([["x", "y"]]) == ("x", "y")
    assert final_order([]) == ()
