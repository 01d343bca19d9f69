"""Read-only queries behind the pages: the lobby and players' pages, where a match sits in its
tournament, what a club evening prints, and the catalogue an organiser chooses from."""
