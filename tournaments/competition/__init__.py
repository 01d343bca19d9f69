"""The competition layer's functional core: seeding, seating, pairing, brackets, standings.

Pure modules: the standard library, and networkx for the matching that pairs 1-v-1 Swiss
rounds (no Django, no database, no clock, no `random`): inputs are frozen dataclasses and
plain sequences, outputs are frozen dataclasses. Randomness is an input: a draw comes from
a committed seed (`seeding.draw_order`); the Swiss local search draws its moves from a
fixed-seed generator of its own, so the same input always gives the same output.

* `entries`      – who plays: individuals, pairs, teams; withdrawals.
* `seeding`      – manual seeding, by rating, or a draw from a committed seed.
* `tables`       – table sizes, snake seating, balancing (elimination by tables), who opens.
* `round_robin`  – groups and all-play-all schedules (1-v-1 circle method, tables of k).
* `swiss`        – Swiss rounds for tables of 2–6: fewest repeat meetings (matching, exhaustive
                   or local search) against a lower bound, score groups, byes.
* `elimination`  – single/double elimination brackets; elimination by tables.
* `standings`    – standings and tiebreak chains, each resolved tie with its reason.
* `alalay_event` – Cochabamba-style Alalay events: qualifying tables, then a final table.
* `stages`       – stages that chain (groups then playoffs), who advances, the final order.
"""
