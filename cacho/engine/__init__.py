"""The rules of the leather-cup dice games: pure functions, standard library only.

Sub-packages: `bidding` (dudo, cacho-chileno, cacho-online, liars-dice) and
`alalay` (Cacho Alalay). `record` reads and replays portable match records.
"""
