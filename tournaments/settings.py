"""Django settings for Cacho, derived from `tournaments.config` (the environment, read once)."""

from __future__ import annotations

import os

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from tournaments.config import BASE_DIR, ConfigError, load

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
CACHO_SNAPSHOT_EVERY = 100  # events between two snapshots of a match's state (cacho.snapshots)
CACHO_DB_PREPARED = CONFIG.prepared_statements  # the event store's statements prepared (cacho.prepared)
CACHO_NOTICE_RELAY = CONFIG.notice_relay  # this host's notice relay socket, or "" (cacho.services.relay)

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

ROOT_URLCONF = "tournaments.urls"
WSGI_APPLICATION = "tournaments.wsgi.application"
ASGI_APPLICATION = "tournaments.asgi.application"

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
    DATABASES = {
        "default": dj_database_url.parse(
            CONFIG.database_url,
            conn_max_age=60,
            conn_health_checks=True,
        )
    }
    DATABASES["default"]["ENGINE"] = "django.db.backends.postgresql"
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("connect_timeout", 5)
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
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# ------------------------------------------------------------------ channel layer
if CONFIG.redis_url:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                # socket_timeout None: redis-py 8's default 5 s timeout kills idle
                # consumers (pitfalls.md, channels_redis#422). redis is also pinned <8.
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
# ETA/countdown tasks are redelivered after this; timer tasks must be idempotent.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
CELERY_TIMEZONE = "UTC"

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
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": CONFIG.log_level},
    # Replace Django's own console handler so that records are printed once.
    "loggers": {"django": {"handlers": [], "propagate": True}},
}
