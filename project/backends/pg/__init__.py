"""Django's PostgreSQL backend with the pool's check of project.backends.db_pool (settings' ENGINE)."""
