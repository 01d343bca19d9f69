"""A player's notices (docs/notices.md): "your next table is ready", "it is your turn" while
the tab is hidden, "a ruling changed your result", "your tournament starts in 15 minutes",
"your dispute was ruled" — each delivered in the app (the bell, over the sockets), by email
or by browser push, as the player chose per kind. Created and sent after commit by
idempotent Celery tasks; a notice names tables, rounds and tournaments, never a die."""
