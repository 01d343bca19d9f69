#!/usr/bin/env bash
# `make test`: dev dependencies, PostgreSQL and Redis up, the whole pytest suite on every core.
# Arguments are passed to pytest instead (e.g. `deploy/dev/test.sh tests/engine -x`).
# With CI set (.ci/run sets it) a test that lacks PostgreSQL, Redis or Chromium fails
# instead of skipping (tests/needs.py).
set -euo pipefail
cd "$(dirname "$0")/../.."
. deploy/dev/_venv.sh
ensure_venv "[dev]"

export DATABASE_URL="${DATABASE_URL:-postgres://root@127.0.0.1:5432/cacho}"
export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379/0}"

# Start the local services when this machine has them but they are stopped.
if command -v pg_isready >/dev/null 2>&1 && ! pg_isready -q -h 127.0.0.1; then
    if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
        echo "==> starting PostgreSQL" >&2
        for version in $(ls /etc/postgresql); do
            pg_ctlcluster --skip-systemctl-redirect "$version" main start >&2 || true
        done
        for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 && break; sleep 0.5; done
    fi
fi
if command -v redis-cli >/dev/null 2>&1 && ! redis-cli -h 127.0.0.1 ping >/dev/null 2>&1; then
    if command -v redis-server >/dev/null 2>&1; then
        echo "==> starting Redis" >&2
        redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >&2
        for _ in $(seq 1 30); do redis-cli -h 127.0.0.1 ping >/dev/null 2>&1 && break; sleep 0.2; done
    fi
fi

# Create the database named in DATABASE_URL when it is missing.
db_name="$(.venv/bin/python -c 'import sys, urllib.parse as u; print(u.urlsplit(sys.argv[1]).path.lstrip("/"))' "$DATABASE_URL")"
if command -v psql >/dev/null 2>&1 && ! psql "$DATABASE_URL" -Atqc 'SELECT 1' >/dev/null 2>&1; then
    maintenance_url="$(.venv/bin/python -c 'import sys, urllib.parse as u; p = u.urlsplit(sys.argv[1]); print(p._replace(path="/postgres").geturl())' "$DATABASE_URL")"
    echo "==> creating database $db_name" >&2
    psql "$maintenance_url" -Atqc "CREATE DATABASE \"$db_name\"" >&2 || true
fi

# Chromium for the browser tests (tests/frontend): `playwright install` cannot download here.
# They run Debian's headless shell where it is installed (lighter: no browser UI), Debian's
# Chromium else (tests/frontend/conftest.py).
chromium_packages=""
[ -x /usr/bin/chromium ] || chromium_packages="$chromium_packages chromium"
[ -x /usr/bin/chromium-headless-shell ] || chromium_packages="$chromium_packages chromium-headless-shell"
if [ -n "$chromium_packages" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "==> installing${chromium_packages} for the browser tests" >&2
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $chromium_packages; } >/dev/null 2>&1 \
        || echo "==> could not install${chromium_packages}" >&2
fi
if [ ! -x /usr/bin/chromium ] && [ ! -x /usr/bin/chromium-headless-shell ]; then
    echo "==> no Chromium: browser tests will $([ -n "${CI:-}" ] && echo fail || echo be skipped)" >&2
fi

# deploy: nginx and PgBouncer for the deployment's tests (tests/deploy: the topology through
# nginx, `nginx -t` of every nginx file, PgBouncer in transaction mode), Debian packages.
# The tests start their own on free ports (whatever the packages' own services do).
deploy_packages=""
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || deploy_packages="nginx"
command -v pgbouncer >/dev/null 2>&1 || [ -x /usr/sbin/pgbouncer ] || deploy_packages="$deploy_packages pgbouncer"
command -v openssl >/dev/null 2>&1 || deploy_packages="$deploy_packages openssl"
if [ -n "${deploy_packages# }" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "==> installing${deploy_packages} for the deployment tests" >&2
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $deploy_packages; } >/dev/null 2>&1 \
        || echo "==> could not install${deploy_packages}: the deployment tests will $([ -n "${CI:-}" ] && echo fail || echo be skipped)" >&2
fi

# axe-core for the accessibility test (tests/frontend/test_accessibility.py), from the npm
# registry into .venv/node (the pinned major keeps the rule set stable between runs). Without
# npm the test skips on a developer's machine and fails under CI (tests/needs.py).
AXE_VERSION="4.10"
if [ ! -f .venv/node/node_modules/axe-core/axe.min.js ]; then
    if command -v npm >/dev/null 2>&1; then
        echo "==> installing axe-core $AXE_VERSION with npm into .venv/node" >&2
        mkdir -p .venv/node
        npm install --silent --no-audit --no-fund --prefix .venv/node "axe-core@~$AXE_VERSION" >&2 \
            || echo "==> could not install axe-core: the accessibility test will $([ -n "${CI:-}" ] && echo fail || echo be skipped)" >&2
    else
        echo "==> npm is missing: the accessibility test will $([ -n "${CI:-}" ] && echo fail || echo be skipped)" >&2
    fi
fi

# Bytecode written (the machine sets PYTHONDONTWRITEBYTECODE): otherwise every server,
# worker and manage.py that the tests start compiles the project again. Beside the sources,
# in `__pycache__` (git ignores it), where pip and Python's installer already compiled the
# libraries and the standard library: a cache prefix made every process of a fresh clone's
# first run compile those again (docs/testing.md).
unset PYTHONDONTWRITEBYTECODE PYTHONPYCACHEPREFIX

# The whole suite (no arguments: `make test`, CI) on every core: pytest-xdist, a worker a
# core and two more, at most 8 (a test also waits: on its browser, its servers, its timers,
# and with fewer workers the cores idled; docs/testing.md), each worker with a Redis
# database, test databases, ids and ports of its own
# (tests/workers.py), tests handed out one by one as workers free up (a module whose tests
# share a module-scoped fixture goes to one worker: `xdist_group`); the 30 slowest tests
# printed (docs/testing.md).
# With arguments, one process, as given (add `-n auto` for more).
if [ "$#" -eq 0 ]; then
    cores="$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)"
    set -- --numprocesses="${CACHO_TEST_WORKERS:-$((cores + 2))}" --maxprocesses=8 --dist=loadgroup --durations=30
fi

echo "==> $(.venv/bin/python -c "import sys; from project.config import main; sys.exit(main())")" >&2
exec .venv/bin/python -m pytest "$@"
