# Two commands for a fresh machine (see README.md). The logic lives in deploy/dev/.
.PHONY: run test lint

run:  ## install, migrate and serve on http://127.0.0.1:8000 (embedded: SQLite, in-memory)
	@deploy/dev/run.sh

test:  ## install dev tools, start PostgreSQL + Redis if stopped, run the whole suite
	@deploy/dev/test.sh

lint:  ## the static checks alone (they also run inside `make test`)
	@deploy/dev/test.sh tests/test_foundation/test_static_checks.py
