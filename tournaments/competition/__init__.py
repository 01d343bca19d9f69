"""The competition layer's functional core: seeding, seating, pairing, brackets, standings.

Pure modules, standard library only (no Django, no database, no clock, no `random`):
inputs are frozen dataclasses and plain sequences, outputs are frozen dataclasses.
Randomness is an input: a draw comes from a committed seed (`seeding.draw_order`).

* `entries`      – who plays: individuals, pairs, teams; withdrawals.
* `seeding`      – manual seeding, by rating, or a draw from a committed seed.
* `tables`       – table sizes, snake seating, balancing (elimination by tables), who opens.
* `round_robin`  – groups and all-play-all schedules (1-v-1 circle method, tables of k).
* `swiss`        – Swiss rounds for tables of 2–6 with minimal repeat meetings and byes.
* `elimination`  – single/double elimination brackets; elimination by tables.
* `standings`    – standings and tiebreak chains, each resolved tie with its reason.
* `alalay_event` – Cochabamba-style Alalay events: qualifying tables, then a final table.
* `stages`       – stages that chain (groups then playoffs), who advances, the final order.
"""
