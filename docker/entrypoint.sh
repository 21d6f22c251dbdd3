#!/bin/sh
# Roles: web (migrates first, then serves), worker, analysis (the post-game analyses' worker),
# beat, or any command.
set -e
role="${1:-web}"
case "$role" in
  web)
    python manage.py migrate --noinput
    # Four web processes per core, each with few threads (ttr_site/pools.py): a process's event
    # loop waits for the GIL behind its busy threads, so latency grows with threads per process
    # (benchmarks/load.py on 2 cores: 8 processes beat 4, which beat 2). No permessage-deflate:
    # a frame is 2-12 KB of JSON, and compressing it for every socket (zlib gives up the GIL
    # each time) cost more latency than the bytes it saves (README, "Benchmarks").
    # --no-proxy-headers: the site reads X-Forwarded-For itself, only from TRUSTED_PROXIES
    # (ttr_site/client_address.py); uvicorn would believe it from anyone named here.
    exec uvicorn ttr_site.asgi:application --host 0.0.0.0 --port "${PORT:-8000}" \
      --workers "${WEB_CONCURRENCY:-$(( $(nproc) * 4 ))}" --ws-per-message-deflate "${WS_COMPRESSION:-false}" \
      --no-proxy-headers --no-access-log
    ;;
  worker)
    exec celery -A ttr_site worker --loglevel="${LOG_LEVEL:-WARNING}" --concurrency="${WORKER_CONCURRENCY:-4}" \
      -Q "${CELERY_QUEUE:-celery}"
    ;;
  analysis)
    # Minutes of CPU per job: a worker of their own, so that they never hold up a bot's move.
    exec celery -A ttr_site worker --loglevel="${LOG_LEVEL:-WARNING}" --concurrency="${ANALYSIS_CONCURRENCY:-1}" \
      -Q "${ANALYSIS_QUEUE:-${CELERY_QUEUE:-celery}.analysis}" -n "analysis@%h"
    ;;
  beat)
    exec celery -A ttr_site beat --loglevel="${LOG_LEVEL:-WARNING}" --schedule=/app/var/celerybeat-schedule
    ;;
  *)
    exec "$@"
    ;;
esac
