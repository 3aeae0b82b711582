#!/usr/bin/env bash
# Services the web tests need on a fresh Debian 12 machine (as root, no systemd):
# a PostgreSQL server on loopback, Debian's Chromium for the browser tests, and axe-core (npm ci,
# package.json) for their accessibility checks.
#
# Idempotent: packages already installed are not fetched again; a running cluster is reused.
# Progress goes to stderr; stdout carries only `export` lines, so CI can do
#     eval "$(scripts/ci-services.sh)"
set -euo pipefail

log() { echo "ci-services: $*" >&2; }

PG_USER=quarterdeck
PG_PASSWORD=quarterdeck
PG_DATABASE=quarterdeck_test
PG_PORT="${QUARTERDECK_PG_PORT:-5432}"

need_packages=()
for package in postgresql chromium chromium-driver fonts-dejavu-core; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
        || need_packages+=("$package")
done
command -v npm >/dev/null || need_packages+=(npm)  # for axe-core (package.json), the accessibility checker
if ((${#need_packages[@]})); then
    log "installing ${need_packages[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq --no-install-recommends "${need_packages[@]}" >&2
fi

# The newest installed server version, and its cluster `main` (created if the package did not).
PG_VERSION="$(ls /usr/lib/postgresql | sort -n | tail -1)"
if ! pg_lsclusters -h | awk '{print $1, $2}' | grep -qx "$PG_VERSION main"; then
    log "creating cluster $PG_VERSION/main"
    pg_createcluster "$PG_VERSION" main --port "$PG_PORT" >&2
fi
PG_PORT="$(pg_lsclusters -h | awk -v v="$PG_VERSION" '$1 == v && $2 == "main" {print $3}')"
if ! pg_lsclusters -h | awk -v v="$PG_VERSION" '$1 == v && $2 == "main" {print $4}' | grep -q online; then
    log "starting PostgreSQL $PG_VERSION on port $PG_PORT"
    pg_ctlcluster "$PG_VERSION" main start >&2
fi
for _ in $(seq 30); do
    pg_isready -q -h 127.0.0.1 -p "$PG_PORT" && break
    sleep 1
done
pg_isready -h 127.0.0.1 -p "$PG_PORT" >&2

as_postgres() { su postgres -s /bin/sh -c "$1"; }
if ! as_postgres "psql -p $PG_PORT -tAc \"SELECT 1 FROM pg_roles WHERE rolname = '$PG_USER'\"" | grep -q 1; then
    log "creating role $PG_USER"
    as_postgres "psql -p $PG_PORT -qc \"CREATE ROLE $PG_USER LOGIN PASSWORD '$PG_PASSWORD'\"" >&2
fi
# each test run makes a database of its own (tests/web/conftest.py), so runs never share tables
as_postgres "psql -p $PG_PORT -qc \"ALTER ROLE $PG_USER CREATEDB\"" >&2
if ! as_postgres "psql -p $PG_PORT -tAc \"SELECT 1 FROM pg_database WHERE datname = '$PG_DATABASE'\"" | grep -q 1; then
    log "creating database $PG_DATABASE"
    as_postgres "createdb -p $PG_PORT -O $PG_USER $PG_DATABASE" >&2
fi

# axe-core, pinned in package.json / package-lock.json, for the browser tests' accessibility checks.
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
if [ ! -f "$ROOT/node_modules/axe-core/axe.min.js" ]; then
    log "installing axe-core (npm ci)"
    (cd "$ROOT" && npm ci --no-audit --no-fund >&2)
fi

CHROMIUM="$(command -v chromium)"
log "chromium: $("$CHROMIUM" --version 2>/dev/null || echo missing)"

echo "export QUARTERDECK_TEST_POSTGRES_URL='postgresql+psycopg://$PG_USER:$PG_PASSWORD@127.0.0.1:$PG_PORT/$PG_DATABASE'"
echo "export QUARTERDECK_CHROMIUM='$CHROMIUM'"
echo "export QUARTERDECK_AXE='$ROOT/node_modules/axe-core/axe.min.js'"
# With this set, the web tests fail instead of skipping when PostgreSQL or Chromium is missing.
echo "export QUARTERDECK_REQUIRE_SERVICES=1"
