#!/usr/bin/env bash
# Restore a dump made by deploy/backup.sh into an empty database, then check it:
# every match chain and tournament log verified, the projections rebuilt from the events
# and compared with the restored ones (`manage.py restore_check`; exit 1 on any problem).
#
#   deploy/restore.sh FILE postgres://user@host:5432/cacho_restored
#
# The target database must exist and be empty (createdb); the restore is one transaction,
# stopped at the first error. Run from the project folder, with the project's Python
# (PYTHON, default .venv/bin/python).
set -euo pipefail
file="${1:?usage: deploy/restore.sh FILE TARGET_DATABASE_URL}"
target="${2:?usage: deploy/restore.sh FILE TARGET_DATABASE_URL}"
file="$(realpath "$file")"
cd "$(dirname "$0")/.."
pg_restore --no-owner --no-privileges --exit-on-error --single-transaction --dbname="$target" "$file"
DATABASE_URL="$target" "${PYTHON:-.venv/bin/python}" manage.py restore_check
