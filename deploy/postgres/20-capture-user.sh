#!/bin/sh
# docker-entrypoint-initdb.d, first start only, after 10-orders.sql: the role Tidemark captures as. Not a superuser:
# it has what capture's start checks ask for (`tidemark run` names each one missing, with its GRANT) and no more:
#   REPLICATION                  the replication slot and the replication connection
#   CREATE on the database       the publication capture creates for source.tables
#   ownership of public.orders   CREATE PUBLICATION … FOR TABLE and REPLICA IDENTITY FULL need the table's owner
#                                (and the owner may read it, for the snapshot)
#   CREATE on schema public      the pipeline's signal table (one-table snapshots), created at the first start
# Schema changes are then followed by catalog comparison: event triggers need a superuser (docs/schema-changes.md).
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "${POSTGRES_DB:-$POSTGRES_USER}" \
     -v capture_user="${CAPTURE_USER:-tidemark_capture}" -v capture_password="$CAPTURE_PASSWORD" <<'SQL'
CREATE ROLE :"capture_user" LOGIN REPLICATION PASSWORD :'capture_password';
GRANT CREATE ON DATABASE :"DBNAME" TO :"capture_user";
GRANT CREATE ON SCHEMA public TO :"capture_user";
ALTER TABLE public.orders OWNER TO :"capture_user";
SQL
