"""Django's PostgreSQL backend with the pool's check of tournaments.db_pool (settings' ENGINE)."""
