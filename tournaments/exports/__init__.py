"""Standings exports a director can hand out: CSV, XLSX (openpyxl), JSON and a printed page,
in the request's language.

- `data`: what every export shows, gathered once (`build`): the final ranking with each
  entry's figures, every stage's standings, the tournament's metadata;
- `table`: the tables as translated columns and typed cells, shared by the renderers;
- `files`: CSV, XLSX, the printed page's context and the file name.

Every export carries the tournament's event log head (`head_hash`, with the log version:
in the file name, the JSON's `metadata`, the XLSX's metadata sheet, the page's footer) and
its generation time, so that a sheet handed out can be matched to the log.
"""

from tournaments.exports.data import StandingsExport, build, tiebreak_text
from tournaments.exports.files import XLSX, filename, print_context, to_csv, to_xlsx

__all__ = [
    "XLSX",
    "StandingsExport",
    "build",
    "filename",
    "print_context",
    "tiebreak_text",
    "to_csv",
    "to_xlsx",
]
