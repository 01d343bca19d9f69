"""Django settings for Cacho, derived from `project.config` (the environment, read once)."""

from __future__ import annotations

import os
import tempfile

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from project.config import BASE_DIR, ConfigError, load

try:
    CONFIG = load(os.environ)
except ConfigError as exc:  # refuse to start half-configured (e.g. production without a secret)
    raise ImproperlyConfigured(str(exc)) from exc

# ------------------------------------------------------------------ mode
CACHO_ENV = CONFIG.env
CACHO_MODE = CONFIG.mode  # "embedded" | "services" | "mixed"
CACHO_DATABASE = CONFIG.database  # "sqlite" | "postgresql"
CACHO_CHANNEL_LAYER = CONFIG.channel_layer  # "in-memory" | "redis"
CACHO_TIMERS = CONFIG.timers  # "in-process" | "celery"
CACHO_DEMO_BOTS = CONFIG.demo_bots  # the serving process plays the demo club's bots
# The appeal period between rounds of a tournament created without one (minutes; 0: the
# next round is drawn as soon as the last table ends). The test suite sets 0.
CACHO_ROUND_APPEAL_MINUTES = int(os.environ.get("CACHO_ROUND_APPEAL_MINUTES", "2"))
# Each match's chain head anchored outside it (cacho.anchors): a digest of the heads that
# moved, every 5 minutes (beat: project/celery.py), signed with a key kept apart from
# the database (CACHO_ANCHOR_KEY; the secret key when not set). docs/event-store.md "Anchors".
CACHO_ANCHOR_KEY = os.environ.get("CACHO_ANCHOR_KEY") or CONFIG.secret_key
CACHO_SNAPSHOT_EVERY = 100  # events between two snapshots of a match's state (cacho.eventlog.snapshots)
CACHO_DB_PREPARED = (
    CONFIG.prepared_statements
)  # the event store's statements prepared (cacho.database.prepared)
# Told after commit that a match has ended (cacho.services.finished): its table's result.
CACHO_MATCH_FINISHED = [
    "tournaments.services.results.match_finished",
    "tournaments.open_tables.service.match_finished",  # an open table's end and ratings
]
# A bot waits this long before its move (cacho.services.bot_turns; a test may set 0).
CACHO_BOT_THINK_MS = int(os.environ.get("CACHO_BOT_THINK_MS", "900"))
# Who hears that a match's turn passed to a player (cacho.services.turns): the "your turn"
# notice while that player's tab is hidden (docs/notices.md).
CACHO_TURN_STARTED = ["tournaments.notices.turns.turn_started"]
# Browser push (Web Push): the VAPID key pair and contact from the environment; no keys, no push.
VAPID_PUBLIC_KEY = CONFIG.vapid_public_key
VAPID_PRIVATE_KEY = CONFIG.vapid_private_key
VAPID_SUBJECT = CONFIG.vapid_subject
# Who referees a match (the omniscient view): the club referees of its tournament.
CACHO_REFEREE_CHECK = "tournaments.services.disputes.referees_match"
# Table talk (docs/table-talk.md): a club table's chat switch and queue; the clubs a user moderates.
CACHO_TALK_TABLE = "tournaments.services.talk.table_talk"
CACHO_TALK_CLUBS = "tournaments.services.talk.moderated_clubs"
CACHO_TALK_MAX_CHARS = 280  # a table-talk message's length
# Who may import a physical table's record (cacho.services.scorekeepers).
CACHO_IMPORT_CHECK = "tournaments.services.physical.may_import"
# Which seat a browser's session holds without an account (cacho.services.seat_holders):
# a walk-in's claimed seat link.
CACHO_SEAT_HOLDER_CHECK = "tournaments.services.seat_links.seat_holder"

SECRET_KEY = CONFIG.secret_key
DEBUG = CONFIG.debug
ALLOWED_HOSTS = list(CONFIG.allowed_hosts)
CSRF_TRUSTED_ORIGINS = list(CONFIG.csrf_trusted_origins)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "cacho",
    "cacho.live",
    "tournaments",
    "frontend",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "project.urls"
WSGI_APPLICATION = "project.wsgi.application"
ASGI_APPLICATION = "project.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# ------------------------------------------------------------------ database
if CONFIG.database_url:
    # No persistent connection per thread (under ASGI every request's thread kept one: they
    # piled up past PostgreSQL's max_connections). Each process borrows from psycopg's pool,
    # at most CACHO_DB_POOL_MAX connections, for a request or a socket's database call at a
    # time; with CACHO_DB_POOL_MAX=0 a connection lasts one request (deploy/README.md).
    DATABASES = {"default": dj_database_url.parse(CONFIG.database_url, conn_max_age=0)}
    DATABASES["default"]["ENGINE"] = "django.db.backends.postgresql"
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("connect_timeout", 5)
    if CONFIG.db_pool_max:
        DATABASES["default"]["OPTIONS"]["pool"] = {
            "min_size": CONFIG.db_pool_min,
            "max_size": CONFIG.db_pool_max,
            "timeout": CONFIG.db_pool_timeout,  # seconds a request waits for a free connection
        }
        # The pool checks a connection it lends (when its idle socket is readable); a dead one
        # has it check them all and replace the dead (the server dropped them:
        # project/backends/db_pool.py, project/backends/pg).
        DATABASES["default"]["ENGINE"] = "project.backends.pg"
        DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    else:
        DATABASES["default"]["CONN_HEALTH_CHECKS"] = False
else:
    CONFIG.data_dir.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": CONFIG.sqlite_path,
            # WAL and immediate transactions: the server, its timer thread and the demo bots
            # write concurrently; readers never block and writers queue instead of failing.
            "OPTIONS": {
                "timeout": 20,
                "transaction_mode": "IMMEDIATE",
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
            # The tests on SQLite store in a file, as embedded mode does (concurrent writers
            # wait for each other there; a shared in-memory database fails them at once),
            # one a process: runs side by side never share it.
            "TEST": {"NAME": os.path.join(tempfile.gettempdir(), f"cacho-test-{os.getpid()}.sqlite3")},
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# ------------------------------------------------------------------ channel layer
if CONFIG.redis_url and CONFIG.redis_layer == "pubsub":
    # A notice is one PUBLISH; each server process subscribes once per match it serves
    # (cacho.live.hub). At most once, as every layer here: clients catch up by version.
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [{"address": CONFIG.redis_url, "socket_timeout": None}],
                "prefix": "cacho",
            },
        }
    }
elif CONFIG.redis_url:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                # socket_timeout None: redis-py 8's default 5 s timeout kills idle
                # consumers (docs/pitfalls.md, channels_redis#422). redis is also pinned <8.
                "hosts": [{"address": CONFIG.redis_url, "socket_timeout": None}],
                "prefix": "cacho",
                # One channel per server process carries every match it serves (cacho.live.hub).
                "channel_capacity": {"hub-*": 5000},
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# ------------------------------------------------------------------ celery (timers)
if CONFIG.redis_url:
    CELERY_BROKER_URL = CONFIG.redis_url
    # kombu's Redis transport, surviving a Redis that comes back empty (project/backends/broker.py).
    CELERY_BROKER_TRANSPORT = "project.backends.broker:Transport"
    CELERY_TASK_ALWAYS_EAGER = False
else:
    # Embedded: no broker, no worker; tasks run in-process when called.
    CELERY_BROKER_URL = "memory://"
    CELERY_TASK_ALWAYS_EAGER = True
    CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BEAT_SCHEDULER = "project.backends.beat:Scheduler"  # sleeps until due (project/backends/beat.py)
# ETA/countdown tasks are redelivered after this; timer tasks must be idempotent.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
CELERY_TIMEZONE = "UTC"
# Celery's Django fixup closes the database connections around every task; with Django's
# pool on a prefork worker that closes the whole pool (celery#10554): a new PostgreSQL
# connection a task, and the after-commit thread's work failing on a closed pool (a held
# turn timer lost, played by the sweep up to a second late). It closes them only every
# this many tasks; the connection goes back to the pool after each task instead
# (project.celery), as after a request.
CELERY_DB_REUSE_MAX = 1_000_000_000

# ------------------------------------------------------------------ mail (docs/accounts.md)
# One setting, EMAIL_URL (project.config.EmailConfig); mail leaves through tournaments.mail.
EMAIL_BACKEND = CONFIG.email.backend
EMAIL_HOST = CONFIG.email.host
EMAIL_PORT = CONFIG.email.port
EMAIL_HOST_USER = CONFIG.email.user
EMAIL_HOST_PASSWORD = CONFIG.email.password
EMAIL_USE_TLS = CONFIG.email.use_tls
EMAIL_USE_SSL = CONFIG.email.use_ssl
EMAIL_TIMEOUT = CONFIG.email.timeout
DEFAULT_FROM_EMAIL = CONFIG.email.sender
SERVER_EMAIL = CONFIG.email.sender
CACHO_SITE_URL = CONFIG.site_url  # the links in mail (tournaments.mail.site_url)
PASSWORD_RESET_TIMEOUT = 2 * 3600  # seconds a password reset link lasts
CACHO_VERIFY_EMAIL_SECONDS = 3 * 86400  # seconds an address's verification link lasts

# ------------------------------------------------------------------ auth
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# ------------------------------------------------------------------ i18n
LANGUAGE_CODE = "es"
LANGUAGES = [("es", _("Español")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

# ------------------------------------------------------------------ static files
STATIC_URL = "/static/"
STATIC_ROOT = CONFIG.static_root
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if CONFIG.production
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
# Outside production WhiteNoise serves straight from the app folders (no collectstatic).
WHITENOISE_USE_FINDERS = not CONFIG.production
WHITENOISE_AUTOREFRESH = DEBUG

# ------------------------------------------------------------------ API
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": [
        "rest_framework.permissions.IsAuthenticatedOrReadOnly",
    ],
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Cacho API",
    "DESCRIPTION": "Clubs, tournaments and live matches of the Dudo family and Cacho Alalay.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # The API pages work offline: their scripts come with the project's static files.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Several models have a `status`: name each choice set instead of letting them collide.
    "ENUM_NAME_OVERRIDES": {
        "MatchStatusEnum": "cacho.models.Match.STATUS_CHOICES",
        "TournamentStatusEnum": "tournaments.models.Tournament.STATUS_CHOICES",
        "EntryStatusEnum": "tournaments.models.Entry.STATUS_CHOICES",
        "StageStatusEnum": "tournaments.models.Stage.STATUS_CHOICES",
        "RoundStatusEnum": "tournaments.models.Round.STATUS_CHOICES",
    },
}

# ------------------------------------------------------------------ security
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
if CONFIG.production:
    # TLS ends at the reverse proxy (deploy/nginx.conf), which sets X-Forwarded-Proto.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = CONFIG.secure_ssl_redirect
    # /healthz is probed over plain HTTP by the process supervisor / load balancer.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SECURE_HSTS_SECONDS = CONFIG.hsts_seconds
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    CSRF_COOKIE_HTTPONLY = True

# ------------------------------------------------------------------ logging
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
        "json": {"()": "cacho.observability.logs.JsonFormatter"},  # deploy: one JSON object a line, with ids
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": CONFIG.log_format}},
    "root": {"handlers": ["console"], "level": CONFIG.log_level},
    # Replace Django's own console handler so that records are printed once.
    "loggers": {"django": {"handlers": [], "propagate": True}},
}

# ------------------------------------------------------------------ deploy: pooler, metrics, logs
# (docs/deploy.md) Everything below is read from project/config.py.
if CONFIG.database_url and CONFIG.transaction_pooling:
    # PgBouncer in transaction mode lends a server connection per transaction: Django's
    # server-side cursors (WITH HOLD, for .iterator()) would outlive it.
    DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True
# /metrics (project.observability.metrics): a bearer token, or a client in one of these networks.
CACHO_METRICS_TOKEN = CONFIG.metrics_token
CACHO_METRICS_ALLOW = list(CONFIG.metrics_allow)
CACHO_METRICS_DIR = CONFIG.metrics_dir  # prometheus-client's multiprocess mode when set
CACHO_METRICS_PORT = CONFIG.metrics_port  # a Celery worker's own exporter (project.celery)
CACHO_WORKER_READY_FILE = CONFIG.worker_ready_file  # touched by a ready Celery worker
if CONFIG.metrics_dir is not None:
    CONFIG.metrics_dir.mkdir(parents=True, exist_ok=True)
if CONFIG.production:  # probes and scrapers reach the processes over plain HTTP
    SECURE_REDIRECT_EXEMPT = [*SECURE_REDIRECT_EXEMPT, r"^readyz$", r"^metrics$"]
MIDDLEWARE.append("project.edge.request_ids.RequestIdsMiddleware")  # ids for the JSON logs
# Celery logs through the handlers above (JSON in production), not a format of its own.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# ------------------------------------------------------------------ hardening
# The edges' input policy, every API error as {code, message}, rate limits and the
# security headers (project/edge/edges.py, cacho/edge/inputs.py, cacho/edge/limits.py).
# The headers wrap the edge, so that what the edge answers itself (a refusal, an error as
# JSON, the site's 404 page in DEBUG) carries them too.
MIDDLEWARE.insert(1, "project.edge.edges.SecurityHeadersMiddleware")
MIDDLEWARE.insert(2, "project.edge.edges.EdgeMiddleware")
MIDDLEWARE.append("project.edge.edges.SiteNotFoundMiddleware")
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440  # bytes of a request body (413 `body-too-large` past it)
CACHO_JSON_MAX_DEPTH = 32  # levels of nesting in a JSON body or frame (400 `json-too-deep`)
REST_FRAMEWORK.update(
    {
        "EXCEPTION_HANDLER": "cacho.api.errors.exception_handler",
        "DEFAULT_PARSER_CLASSES": [
            "cacho.api.parsers.JSONParser",
            "cacho.api.parsers.FormParser",
            "cacho.api.parsers.MultiPartParser",
        ],
        "DEFAULT_THROTTLE_CLASSES": ["cacho.api.throttles.ApiThrottle"],
        # uvicorn's --proxy-headers already set REMOTE_ADDR from nginx: X-Forwarded-For is not
        # read again (a client could name itself any address).
        "NUM_PROXIES": 0,
    }
)
# Each limit: "N/period" (s, min, hour, day; "5/15min"); a missing or empty one is off.
CACHO_RATES = {
    "api-anon": "600/min",  # API requests per address, not logged in
    "api-user": "1200/min",  # API requests per user
    "commands": "600/min",  # moves per user, over the API and the sockets together
    "login-failed": "10/15min",  # failed logins per address and user name together
    "login-failed-address": "100/15min",  # failed logins per address, whatever the names
    "login-failed-name": "5/min",  # failed logins per user name from anywhere (a short wait)
    # Good logins per address and user name: any one exempts that pair from `login-failed-name`.
    "login-known": "1/30d",
    "signup": "10/hour",  # accounts made per address
    "seat-link": "20/10min",  # failed seat-link openings per address (tournaments.services.seat_links)
    "password-reset": "5/hour",  # reset mails asked per address and per email (tournaments.accounts)
    "verify-email": "5/hour",  # verification mails per account
    "account-change": "10/hour",  # password and email changes per account
    "chat": "12/min",  # table-talk messages per user (or seat without an account), docs/table-talk.md
}
CACHO_RATES_PREFIX = "cacho:rate"
CACHO_RATES_REDIS = CONFIG.redis_url  # shared by every process; None: counted in the process
# One match socket's frames: a burst of CACHO_LIVE_FRAME_BURST, then CACHO_LIVE_FRAME_RATE a
# second; past it each frame gets one `rate-limited` error frame and nothing else.
CACHO_LIVE_FRAME_RATE = float(CONFIG.live_frame_rate)
CACHO_LIVE_FRAME_BURST = CONFIG.live_frame_burst
# A match's projections (lists, the admin; not live play) are written at most once this
# many seconds, and lag by at most that (cacho.services.after_commit).
CACHO_PROJECTION_HOLD = CONFIG.projection_hold
# A socket further behind than this many events gets one state frame instead of the events.
CACHO_LIVE_CATCH_UP_EVENTS = 20
# Seconds between two checks that the channel layer's Redis is the same server (cacho.live.layer_watch).
CACHO_LIVE_LAYER_CHECK = 1.0
# The Content Security Policy of every response (docs/security.md): scripts and styles from
# this site's files only, no inline script, no inline style attribute or event handler; JSON
# data islands (json_script) are not executed and need nothing.
CACHO_CSP = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'"],  # the API and the sockets (ws/wss of this origin)
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}
# Swagger UI and ReDoc (the API reference pages) set style attributes, ReDoc runs a worker
# from a blob: and shows its maker's logo: still no inline script there.
CACHO_CSP_EXTRA = {
    "/api/docs/": {"style-src": ["'self'", "'unsafe-inline'"]},
    "/api/redoc/": {
        "style-src": ["'self'", "'unsafe-inline'"],
        "worker-src": ["'self'", "blob:"],
        "img-src": ["'self'", "data:", "https://cdn.redoc.ly"],
    },
}
CACHO_PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=()"
