#!/usr/bin/env bash
# `make run`: install, migrate, serve on http://127.0.0.1:8000 (embedded defaults).
set -euo pipefail
cd "$(dirname "$0")/../.."
. deploy/dev/_venv.sh
ensure_venv ""

HOST="${HOST:-127.0.0.1}"
PORT="${PORT:-8000}"

.venv/bin/python -c "import sys; from project.config import main; sys.exit(main())"
.venv/bin/python manage.py migrate --noinput
# A demo club with a Dudo and an Alalay tournament whose bots play live (CACHO_DEMO=0: none).
if [ "${CACHO_DEMO:-1}" != "0" ]; then
    .venv/bin/python manage.py seed_demo
    export CACHO_DEMO_BOTS=1
fi
echo "==> serving on http://$HOST:$PORT  (health: http://$HOST:$PORT/healthz, Ctrl-C to stop)"
exec .venv/bin/uvicorn project.asgi:application --host "$HOST" --port "$PORT" --lifespan off
