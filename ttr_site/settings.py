"""Settings for ttr, read from the environment and parsed strictly.

One module for every deployment: what differs between a laptop and production is only
environment. Two modes follow from it:

* **Embedded** (``REDIS_URL`` unset): SQLite by default, an in-process channel layer, an
  in-memory Celery broker and a local-memory cache. ``manage.py serve`` runs the web server,
  a Celery worker and the beat scheduler in one process (see ``ttr_site/embedded.py``).
* **Production** (``REDIS_URL`` set): Channels over Redis pub/sub, Celery over Redis with
  worker and beat as separate processes, a Redis cache; ``DATABASE_URL`` points at PostgreSQL.
"""

import ipaddress
import os
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from ttr_site import redis_retry

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def env_bool(name: str, default: bool) -> bool:
    """A boolean variable; anything but a clear yes or no is a configuration error."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    value = raw.strip().lower()
    if value not in _TRUE | _FALSE:
        raise ImproperlyConfigured(f"{name} must be true or false, not {raw!r}.")
    return value in _TRUE


def env_int(name: str, default: int) -> int:
    """A whole-number variable; a malformed value is a configuration error."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {raw!r}.") from None


def env_float(name: str, default: float) -> float:
    """A number variable; a malformed value is a configuration error."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return float(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a number, not {raw!r}.") from None


def env_networks(name: str) -> list[str]:
    """A comma-separated list of IP addresses or networks (CIDR); a malformed one is a
    configuration error."""
    entries = [entry.strip() for entry in env.list(name, default=[]) if entry.strip()]
    for entry in entries:
        try:
            ipaddress.ip_network(entry, strict=False)
        except ValueError:
            raise ImproperlyConfigured(
                f"{name} must list IP addresses or networks (CIDR), not {entry!r}."
            ) from None
    return entries


DEBUG = env_bool("DEBUG", default=False)

SECRET_KEY = env.str("SECRET_KEY", default="")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set when DEBUG is off (generate one with "
            "`python -c 'import secrets; print(secrets.token_urlsafe(50))'`)."
        )
    SECRET_KEY = "django-insecure-development-only-key-never-use-in-production"

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000").rstrip("/")
# How e-mails and notices name the site ("Hello from ttr!").
SITE_NAME = env.str("SITE_NAME", default="ttr")

REDIS_URL = env.str("REDIS_URL", default="")
EMBEDDED = not REDIS_URL
# Names this deployment's keys and pub/sub channels in a shared Redis. Pub/sub channels are
# global to a Redis server (not per database), so two sites on one Redis need their own.
REDIS_PREFIX = env.str("REDIS_PREFIX", default="ttr")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_countries",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "allauth",
    "allauth.account",
    "ttr_site",
    "ttr_site.accounts",
    "games",
    "ladder",
]

MIDDLEWARE = [
    # First: it turns a database or Redis outage anywhere below into a 503 (ttr_site/outages.py)
    "ttr_site.outages.OutageMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "ttr_site.csp.ContentSecurityPolicyMiddleware",
    "ttr_site.middleware.NulPathMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "ttr_site.middleware.TimezoneMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "ttr_site.middleware.AccountLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

ROOT_URLCONF = "ttr_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "ttr_site.accounts.context_processors.notifications",
            ],
        },
    },
]

WSGI_APPLICATION = "ttr_site.wsgi.application"
ASGI_APPLICATION = "ttr_site.asgi.application"

# --- Database -------------------------------------------------------------------------------
DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'ttr.sqlite3'}")}
VAR_DIR.mkdir(exist_ok=True)  # local state of embedded mode: the SQLite file, beat schedule
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # IMMEDIATE transactions take the write lock up front, so concurrent writers (web and
    # worker threads) queue on the lock instead of failing with "database is locked".
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
else:
    DATABASES["default"].setdefault("CONN_MAX_AGE", env_int("CONN_MAX_AGE", default=60))
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    # The move path's statements (``ttr_site.rows``, bound on the server) are prepared on a
    # connection once they have run this many times there: PostgreSQL then skips parsing and
    # planning them, measured at a third of its CPU for a move's statements. psycopg forgets
    # them at every rollback (an illegal move, a stale version), hence few runs, not its
    # default 5. Django turns prepared statements off by default for transaction poolers;
    # behind one that cannot keep them (PgBouncer before 1.21), set 0 to turn them off. The
    # rest of the site binds on the client, and such statements are never prepared.
    prepare_after = env_int("DATABASE_PREPARE_THRESHOLD", default=1)
    DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = (
        prepare_after if prepare_after > 0 else None
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Cache, channel layer, Celery -------------------------------------------------------------
if EMBEDDED:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CHANNEL_LAYERS = {"default": {"BACKEND": "ttr_site.embedded.ThreadSafeInMemoryChannelLayer"}}
    CELERY_BROKER_URL = "memory://"
    # The in-memory transport polls; the default 1 s would hold every bot move for a second.
    CELERY_BROKER_TRANSPORT_OPTIONS = {"polling_interval": 0.02}
else:
    CACHES = {
        "default": {
            # Django's, with one Redis connection pool per process, not one per socket.
            "BACKEND": "ttr_site.cache.SharedRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": REDIS_PREFIX,
            # A connection that died with a Redis restart reconnects (ttr_site/redis_retry.py).
            "OPTIONS": redis_retry.cache_options(),
        }
    }
    # The pub/sub layer: measured near 1,000 moves/s against 570 for the classic layer, and it
    # keeps no per-consumer polling connections (see ARCHITECTURE.md).
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [redis_retry.layer_host(REDIS_URL)], "prefix": REDIS_PREFIX},
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    # kombu's Redis transport, fixed so a worker outlives a Redis restart (see the module).
    CELERY_BROKER_TRANSPORT = "ttr_site.broker:Transport"

# Seconds a bot waits before moving, so people can follow bot play.
BOT_MOVE_DELAY = env_float("BOT_MOVE_DELAY", default=0.8)
# ``seed_demo`` adds the bots' tournaments that start minutes later (Bot Blitz, Knockout Cup);
# the tests' live sites turn them off: bots playing at test speed only slow the tests down.
DEMO_BOT_TOURNAMENTS = env.bool("DEMO_BOT_TOURNAMENTS", default=True)
# A bot that has not moved after this long is moved by the deadline sweep (lost task).
BOT_STALL_SECONDS = env_float("BOT_STALL_SECONDS", default=30.0)
# Threads of a web process for the players' moves (games.consumers) and, apart from them, for
# bot moves (games.bot_turns): a bot's move waits behind other bots, never in front of a
# player. Few threads and more processes (WEB_CONCURRENCY): see ttr_site/pools.py.
MOVE_THREADS = env_int("MOVE_THREADS", default=4)
BOT_MOVE_THREADS = env_int("BOT_MOVE_THREADS", default=2)
# How far below the process's CPU priority the bot-move threads run (Linux; 0 = the same):
# when the CPU is short, a player's answer comes before a bot's turn, which is a wait anyway.
BOT_MOVE_NICE = env_int("BOT_MOVE_NICE", default=10)
# How long a thread of a web process may keep the interpreter (the GIL) while another waits for
# it, in seconds (CPython's default: 0.005). Longer means fewer forced switches between a
# process's event loop and its move threads. benchmarks/load.py, four alternating pairs, 0.02
# against 0.005: more moves/s, less CPU per move and a lower p99 in each pair, by a few percent
# (docs/benchmarks.md, stop 35). A move's thread gives the GIL up at each round trip anyway.
WEB_SWITCH_INTERVAL = env_float("WEB_SWITCH_INTERVAL", default=0.02)
# Timeouts in a row after which a seat is handed to a bot for the rest of the game.
TIMEOUTS_BEFORE_ABANDON = env_int("TIMEOUTS_BEFORE_ABANDON", default=3)
# Outage time (docs/reliability.md, "Outage time"): the deadline sweep runs every
# SWEEP_SECONDS; a gap of more than CLOCK_OUTAGE_SECONDS between two sweeps is an outage, whose
# time every running game gets back. Each web process beats every WEB_BEAT_SECONDS and counts
# as alive for WEB_ALIVE_SECONDS; while none is, no human seat times out.
SWEEP_SECONDS = 1.0
CLOCK_OUTAGE_SECONDS = env_float("CLOCK_OUTAGE_SECONDS", default=3.0)
WEB_BEAT_SECONDS = env_float("WEB_BEAT_SECONDS", default=1.0)
WEB_ALIVE_SECONDS = env_float("WEB_ALIVE_SECONDS", default=3.0)

# Rate limits (n per window of w seconds), counted in the cache so they hold across web
# processes. Far above what a person or a well-behaved bot client sends; beyond them a socket
# frame gets a "rate_limited" (chat: "chat_rate_limited") error frame and changes nothing.
CHAT_RATE_LIMIT = env_int("CHAT_RATE_LIMIT", default=5)  # per player and table
CHAT_RATE_WINDOW = env_int("CHAT_RATE_WINDOW", default=10)
ACTION_RATE_LIMIT = env_int("ACTION_RATE_LIMIT", default=100)  # game actions per user, as the
ACTION_RATE_WINDOW = env_int("ACTION_RATE_WINDOW", default=10)  # API's 600/minute
SOCKET_FRAME_RATE_LIMIT = env_int("SOCKET_FRAME_RATE_LIMIT", default=200)  # per connection
SOCKET_FRAME_RATE_WINDOW = env_int("SOCKET_FRAME_RATE_WINDOW", default=10)
# Open WebSockets at once (ttr_site/socket_quota.py): a player's tabs need a few each; an
# address may be a club or a school behind one router.
SOCKETS_PER_USER = env_int("SOCKETS_PER_USER", default=30)
SOCKETS_PER_ADDRESS = env_int("SOCKETS_PER_ADDRESS", default=200)
MAX_OPEN_TABLES_PER_USER = env_int("MAX_OPEN_TABLES_PER_USER", default=5)  # waiting for players
# Post-game analysis (games.services.analysis): CPU seconds per graded decision and per
# step's win chances, a cap on playouts per decision (0: none; tests set a tiny one), the
# evaluator ("expert": the expert bot's search; "playouts": bot playouts only), and new
# analyses per user per window (each is a background job of a minute or two).
ANALYSIS_SECONDS_PER_DECISION = env_float("ANALYSIS_SECONDS_PER_DECISION", default=0.2)
ANALYSIS_MAX_PLAYOUTS = env_int("ANALYSIS_MAX_PLAYOUTS", default=0)
ANALYSIS_EVALUATOR = env.str("ANALYSIS_EVALUATOR", default="expert")
ANALYSIS_RATE_LIMIT = env_int("ANALYSIS_RATE_LIMIT", default=5)
ANALYSIS_RATE_WINDOW = env_int("ANALYSIS_RATE_WINDOW", default=3600)

CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_QUEUE", default="celery")
# Post-game analyses (a minute or more of CPU each) wait in a queue of their own, so that a
# worker busy with them never holds up a bot's move, a timeout or a tournament's next round:
# the Docker set-up runs a separate "analysis" worker for it (docker/compose.yml); a single
# worker (make run, the tests' live sites) consumes both queues.
ANALYSIS_QUEUE = env.str("ANALYSIS_QUEUE", default=f"{CELERY_TASK_DEFAULT_QUEUE}.analysis")
CELERY_TASK_ROUTES = {"games.tasks.analyse_game": {"queue": ANALYSIS_QUEUE}}
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# Timeout tasks wait in the worker until their deadline and count against the prefetch
# window; a window of 1 per thread would let them block fresh bot moves.
CELERY_WORKER_PREFETCH_MULTIPLIER = 8
# Celery's Django fixup closes the database connection before and after every task unless
# this is set: a new PostgreSQL connection for every bot move. Set, it closes them only
# every 10,000 tasks, and ttr_site/celery.py closes a broken or obsolete connection around
# each task instead, as Django does around each request.
CELERY_DB_REUSE_MAX = 10_000
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE_FILENAME = env.str(
    "CELERY_BEAT_SCHEDULE_FILENAME", default=str(VAR_DIR / "celerybeat-schedule")
)
CELERY_BEAT_SCHEDULE = {
    # Turn timeouts (and bot moves whose task was lost): deadlines are on the game rows.
    "sweep-deadlines": {"task": "games.tasks.sweep_deadlines", "schedule": SWEEP_SECONDS},
    # Ranked queues: seat whoever fits now (a queue join also runs it at once).
    "ladder-matchmake": {"task": "ladder.tasks.matchmake", "schedule": 4.0},
    # Tournaments: starts, check-in notices, rounds due after a break, lost result tasks.
    "tournaments-tick": {"task": "ladder.tasks.tournaments_tick", "schedule": 5.0},
    "clear-expired-sessions": {
        "task": "ttr_site.accounts.tasks.clear_expired_sessions",
        "schedule": 6 * 3600,
    },
}

# --- Accounts (django-allauth) ----------------------------------------------------------------
AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": 10},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "home"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_CONFIRM_EMAIL_ON_GET = False
# Usernames are public on every ladder, so hiding whether an e-mail is registered buys little;
# a clear "this e-mail is taken" message on sign-up serves people better.
ACCOUNT_PREVENT_ENUMERATION = False
ACCOUNT_USERNAME_MIN_LENGTH = 3
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[ttr] "
# Its client address and its per-account key for failed log-ins (see the module).
ACCOUNT_ADAPTER = "ttr_site.accounts.adapter.AccountAdapter"
# Brute-force protection: allauth counts failed logins per client address and per account in
# the cache; the admin's log-in counts against the same limits (ttr_site.accounts.forms).
ACCOUNT_RATE_LIMITS = {
    "login_failed": env.str("LOGIN_FAILED_RATE_LIMIT", default="10/m/ip,5/5m/key"),
}

# --- E-mail ---------------------------------------------------------------------------------
EMAIL_CONFIG = env.email_url("EMAIL_URL", default="consolemail://")
if EMAIL_CONFIG.get("EMAIL_BACKEND") == "django.core.mail.backends.console.EmailBackend":
    # Printed between rules, with its links on lines of their own (ttr_site/console_mail.py).
    EMAIL_CONFIG["EMAIL_BACKEND"] = "ttr_site.console_mail.EmailBackend"
globals().update(EMAIL_CONFIG)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="ttr <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# --- Internationalisation -------------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("de", _("German")), ("nl", _("Dutch"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
# One date and one date-time format per language, on every page (ttr_site/formats/).
FORMAT_MODULE_PATH = ["ttr_site.formats"]

# --- Static files ---------------------------------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "ttr_site" / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "ttr_site.staticfiles.StaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = DEBUG

# --- REST framework (the public API under /api/v1/) -------------------------------------------
# Throttle rates ("<n>/<second|minute|hour|day>") per client: anonymous visitors (by IP),
# signed-in users, writes (unsafe methods) and game actions; the cache counts them.
API_THROTTLE_RATES = {
    "anon": env.str("API_THROTTLE_ANON", default="120/minute"),
    "user": env.str("API_THROTTLE_USER", default="1200/minute"),
    "writes": env.str("API_THROTTLE_WRITES", default="120/minute"),
    "actions": env.str("API_THROTTLE_ACTIONS", default="600/minute"),
}
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # First: its "Bearer" challenge makes a missing login a 401, not a 403.
        "ttr_site.accounts.authentication.BearerTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # JSON without NUL characters or lone surrogates, which no column can store
    "DEFAULT_PARSER_CLASSES": ["ttr_site.api.parsers.StrictJSONParser"],
    "DEFAULT_PAGINATION_CLASS": "ttr_site.api.pagination.PageNumberPagination",
    "PAGE_SIZE": env_int("API_PAGE_SIZE", default=50),
    "DEFAULT_THROTTLE_CLASSES": [
        "ttr_site.api.throttling.AnonThrottle",
        "ttr_site.api.throttling.UserThrottle",
        "ttr_site.api.throttling.WriteThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": API_THROTTLE_RATES,
    "EXCEPTION_HANDLER": "ttr_site.api.errors.exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_VERSIONING_CLASS": None,
    # No OPTIONS self-description: the OpenAPI schema is the description (OPTIONS is a 405).
    "DEFAULT_METADATA_CLASS": None,
}
API_MAX_PAGE_SIZE = env_int("API_MAX_PAGE_SIZE", default=200)
SPECTACULAR_SETTINGS = {
    "TITLE": "ttr API",
    "DESCRIPTION": (
        "The public REST API of ttr. Authenticate with a personal API token "
        "(`Authorization: Bearer <token>`, created on your settings page) or the browser "
        'session. Every error is `{"code", "message"}` plus optional `detail`, `fields` '
        "or `params`. The WebSocket protocol is described at /api/protocol/."
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_GENERATE_CHOICE_DESCRIPTION": False,
    "ENUM_NAME_OVERRIDES": {
        "RulesetEnum": "games.models.Ruleset",
        "VariantEnum": "games.models.Variant",
        "TimeControlEnum": "games.models.TimeControl",
        "BotLevelEnum": "games.models.BotLevel",
        "TableStatusEnum": "games.models.Table.Status",
        "TournamentStatusEnum": "ladder.models.Tournament.Status",
        "EntryStatusEnum": "ladder.models.Entry.Status",
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "ttr_site.api.schema.add_error_responses",
    ],
    # Self-hosted Swagger UI and Redoc: no CDN is needed (or reachable) to read the docs.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# --- Security (production) ------------------------------------------------------------------
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=not DEBUG)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", default=not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", default=not DEBUG)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", default=0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", default=not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
# Proxies whose X-Forwarded-For is believed (addresses or CIDR networks; none by default): the
# client address of every per-IP limit comes from ttr_site.client_address, and only from them.
TRUSTED_PROXIES = env_networks("TRUSTED_PROXIES")
if env_bool("BEHIND_PROXY", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
X_FRAME_OPTIONS = "DENY"

# Quiet unless asked: at INFO, Celery's beat and worker log every periodic task (the deadline
# sweep runs each second) and uvicorn every request, hundreds of lines a minute in which the
# sign-up e-mail scrolls away. LOG_LEVEL=INFO (or DEBUG) brings them all back.
LOG_LEVEL = env.str("LOG_LEVEL", default="WARNING").upper()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        # Django's own console handler (under DEBUG) printed each of its lines twice.
        "django": {"handlers": [], "level": LOG_LEVEL},
        "django.db.backends": {"level": "WARNING"},
    },
}
if EMBEDDED:  # Celery's in-memory broker has no host by design: kombu need not warn of it
    LOGGING["loggers"]["kombu.connection"] = {"level": "ERROR"}
