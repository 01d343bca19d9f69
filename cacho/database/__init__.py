"""How the match server uses its database: which backend it is, the global order of the
event log, append-only triggers, prepared statements, and connections after a fork."""
