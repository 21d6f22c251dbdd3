#!/bin/sh
# Roles: web (migrates first, then serves), worker, beat, or any command.
set -e
role="${1:-web}"
case "$role" in
  web)
    python manage.py migrate --noinput
    # Two web processes per core: each has one GIL, and bot moves run in the web processes
    # (games/bot_turns.py). Measured with benchmarks/load.py on 2 cores: 4 beat 2.
    exec uvicorn ttr_site.asgi:application --host 0.0.0.0 --port "${PORT:-8000}" \
      --workers "${WEB_CONCURRENCY:-$(( $(nproc) * 2 ))}" --proxy-headers --forwarded-allow-ips='*' --no-access-log
    ;;
  worker)
    exec celery -A ttr_site worker --loglevel=INFO --concurrency="${WORKER_CONCURRENCY:-4}"
    ;;
  beat)
    exec celery -A ttr_site beat --loglevel=INFO --schedule=/app/var/celerybeat-schedule
    ;;
  *)
    exec "$@"
    ;;
esac
