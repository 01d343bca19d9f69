"""Swiss rounds of 1-v-1 (every table of 2): a maximum-weight matching over stretches of the
ranking (tournaments.competition.swiss explains the wishes and the weights)."""

from __future__ import annotations

# 1-v-1: entries per stretch of the ranking matched at once (an even number).
MATCH_CHUNK = 20


def one_v_one(met: list[set[int]], units: list[int]) -> tuple[list[list[int]], bool]:
    """Pairs of entries (sorted best first) by maximum-weight matching; exact when one
    matching covers the whole field (or top against next repeats nobody).

    Top against next (0-1, 2-3, ...) has the smallest score spread and rank distance of
    all pairings, so a stretch of the ranking where it repeats nobody keeps it. The
    ranking is cut into stretches of about MATCH_CHUNK entries (an even count each,
    preferably where the score changes); a stretch where top against next would repeat
    is matched on its own, and a stretch whose matching still repeats is joined with its
    neighbours and matched again, up to the whole field, where the matching's repeats
    are the minimum. Stretches bound the matching's cost (cubic in its size)."""
    n = len(units)
    if all(2 * k + 1 not in met[2 * k] for k in range(n // 2)):
        return [[i, i + 1] for i in range(0, n, 2)], True
    cuts = _cuts(units)
    while True:
        pairs: list[list[int]] = []
        failing: list[int] = []
        for k in range(len(cuts) - 1):
            lo, hi = cuts[k], cuts[k + 1]
            if all(i + 1 not in met[i] for i in range(lo, hi, 2)):
                pairs.extend([i, i + 1] for i in range(lo, hi, 2))
                continue
            matched = _match((lo, hi), met, units)
            pairs.extend(matched)
            if any(b in met[a] for a, b in matched):
                failing.append(k)
        if not failing or len(cuts) == 2:
            return pairs, len(cuts) == 2
        # A stretch that cannot avoid a repeat loses its two cuts: it joins both neighbours.
        dropped = {c for k in failing for c in (k, k + 1)} - {0, len(cuts) - 1}
        cuts = [c for k, c in enumerate(cuts) if k not in dropped]


def _cuts(units: list[int]) -> list[int]:
    """Even positions that cut the ranking into stretches of MATCH_CHUNK/2 to 3·MATCH_CHUNK/2
    entries, each cut where the score changes if one is near (a pair across a score
    change costs spread anyway), the first 0 and the last n."""
    n = len(units)
    cuts = [0]
    while n - cuts[-1] > MATCH_CHUNK + MATCH_CHUNK // 2:
        aim = cuts[-1] + MATCH_CHUNK
        near = [
            p
            for p in range(aim - MATCH_CHUNK // 2, aim + MATCH_CHUNK // 2 + 1, 2)
            if units[p - 1] != units[p]
        ]
        cuts.append(min(near, key=lambda p: (abs(p - aim), p)) if near else aim)
    cuts.append(n)
    return cuts


def _match(window: tuple[int, int], met: list[set[int]], units: list[int]) -> list[list[int]]:
    """The best perfect matching of entries lo..hi-1 (an even count) on the complete graph.

    Weight of a pair: A·new + B·(gap_max - gap) + (d_max - d²), d the rank distance. The
    rank term of a whole matching stays below B and the spread term below A, so the
    matching compares by new meetings, then spread, then rank distance, exactly."""
    lo, hi = window
    half = (hi - lo) // 2
    d_max = (hi - lo - 1) ** 2
    gap_max = units[lo] - units[hi - 1]
    b = half * d_max + 1
    a = b * (half * gap_max + 1)
    # Imported here: networkx is a fifth of the import time of every server, worker and
    # manage.py, and only a Swiss pairing uses it.
    import networkx as nx

    graph = nx.Graph()
    for i in range(lo, hi):
        for j in range(i + 1, hi):
            new = 0 if j in met[i] else 1
            weight = a * new + b * (gap_max - (units[i] - units[j])) + d_max - (j - i) ** 2
            graph.add_edge(i, j, weight=weight)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return sorted(sorted(p) for p in matching)
