#!/usr/bin/env bash
# Install (if missing) and start a local PostgreSQL server, and make a user and a
# database for the server tests. Progress goes to stderr; stdout is the database URL:
#   export PYRAMIDS_TEST_POSTGRES_URL="$(scripts/start-postgres.sh)"
# Needs root (apt-get, and running the cluster as the postgres user).
set -euo pipefail

DB_NAME=${PYRAMIDS_PG_DB:-pyramids_test}
DB_USER=${PYRAMIDS_PG_USER:-pyramids}
DB_PASSWORD=${PYRAMIDS_PG_PASSWORD:-pyramids}

say() { echo "start-postgres: $*" >&2; }

if [ "$(id -u)" != "0" ]; then
    say "needs root (to install PostgreSQL and run it as the postgres user)"
    exit 1
fi

if ! command -v pg_lsclusters >/dev/null 2>&1; then
    say "installing PostgreSQL with apt-get"
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
fi

cluster=$(pg_lsclusters --no-header | head -n 1 || true)
if [ -z "$cluster" ]; then
    version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
    say "creating cluster $version/main"
    pg_createcluster "$version" main >&2
    cluster=$(pg_lsclusters --no-header | head -n 1)
fi
read -r version name port status _ <<<"$cluster"
if [ "$status" != "online" ]; then
    say "starting cluster $version/$name on port $port"
    pg_ctlcluster "$version" "$name" start >&2
fi
for _ in $(seq 1 50); do
    if runuser -u postgres -- pg_isready -q -p "$port"; then break; fi
    sleep 0.2
done

as_postgres() { runuser -u postgres -- psql -p "$port" -v ON_ERROR_STOP=1 -qtA "$@"; }
if [ "$(as_postgres -c "SELECT 1 FROM pg_roles WHERE rolname = '$DB_USER'")" != "1" ]; then
    say "creating user $DB_USER"
    as_postgres -c "CREATE ROLE $DB_USER LOGIN PASSWORD '$DB_PASSWORD'" >&2
fi
# The tests run in parallel, each worker on a database of its own that it makes
# (tests/web/conftest.py, postgres_test_url): the user may create databases.
if [ "$(as_postgres -c "SELECT rolcreatedb FROM pg_roles WHERE rolname = '$DB_USER'")" != "t" ]; then
    say "letting $DB_USER create databases (one for each parallel test worker)"
    as_postgres -c "ALTER ROLE $DB_USER CREATEDB" >&2
fi
if [ "$(as_postgres -c "SELECT 1 FROM pg_database WHERE datname = '$DB_NAME'")" != "1" ]; then
    say "creating database $DB_NAME"
    as_postgres -c "CREATE DATABASE $DB_NAME OWNER $DB_USER" >&2
fi
say "ready"
echo "postgresql://$DB_USER:$DB_PASSWORD@127.0.0.1:$port/$DB_NAME"
