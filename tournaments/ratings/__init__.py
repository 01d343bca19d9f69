"""Player ratings (openskill, Plackett–Luce), one per player per game family, a projection
of the finished rated tables (docs/ratings.md).

`fold` is the pure rating step (no Django); `projection` keeps the stored ratings equal to
a fold over every rated table in a fixed order; `views` reads them for the leaderboards,
the profiles and the organisers' seeding.
"""
