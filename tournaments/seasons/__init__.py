"""Seasons and leagues (docs/seasons.md): a club's or a league's season across evenings, its
standings a projection of the counted tournaments' final rankings, qualification into a
final, and leagues of clubs.

- `scoring`: the pure rules (points per place, best N of M, ties);
- `models`: League, LeagueClub, LeagueRole, Season, SeasonTournament and the projection
  (SeasonResult, SeasonLine);
- `leagues`: leagues, their clubs and roles; `seasons`: creating and editing a season,
  who may; `projection`: the standings from the final rankings, incremental and rebuilt;
  `qualification`: a final's entries from the standings; `exports`: CSV, XLSX, JSON.
"""
