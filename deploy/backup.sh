#!/usr/bin/env bash
# Backup of the event store: the whole database (the events are the truth; the tournament
# logs, seats and seeds go with them; the projections come along and are checked against
# a rebuild on restore). One pg_dump in the custom format: a consistent snapshot of a live
# database (one transaction), compressed, restorable table by table.
#
#   DATABASE_URL=postgres://user@host:5432/cacho deploy/backup.sh [FILE]
#
# FILE defaults to cacho-<UTC time>.dump. The dump is read back (its table of contents)
# before this says where it is. Restore it with deploy/restore.sh (docs/deploy.md).
set -euo pipefail
: "${DATABASE_URL:?DATABASE_URL names the database to back up}"
out="${1:-cacho-$(date -u +%Y%m%dT%H%M%SZ).dump}"
pg_dump --format=custom --compress=6 --no-owner --no-privileges --file="$out" "$DATABASE_URL"
pg_restore --list "$out" >/dev/null
echo "$out"
