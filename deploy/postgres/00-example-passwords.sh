#!/bin/sh
# docker-entrypoint-initdb.d, first start only: a WARNING for every password in this container's environment that is
# still the example value .env.example gives it (docker-compose.yml mounts .env.example at /etc/tidemark/env.example).
examples=${TIDEMARK_ENV_EXAMPLE:-/etc/tidemark/env.example}
grep -E '^[A-Z_]+=' "$examples" | while IFS='=' read -r name example; do
    value=$(printenv "$name" || true)
    if [ -n "$value" ] && [ "$value" = "$example" ]; then
        echo "WARNING: $name is the example password from .env.example; put a password of your own in .env" \
             "(before the first start, or change it in the database as well)" >&2
    fi
done
