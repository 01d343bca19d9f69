"""Root URLconf. The frontend is included by dotted path: the project wires the
top floor in without `tournaments` importing `frontend` (see import contracts)."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView

from project.observability.health import healthz, readyz
from project.observability.metrics import metrics

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("readyz", readyz, name="readyz"),  # deploy: readiness (schema migrated too)
    path("metrics", metrics, name="metrics"),  # deploy: Prometheus (token or allow-list)
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # Both pages load their scripts from files (no inline script: the CSP, docs/security.md).
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path(
        "api/redoc/",
        SpectacularRedocView.as_view(url_name="api-schema", template_name="api/redoc.html"),
        name="api-redoc",
    ),
    path("api/", include("tournaments.api.urls")),
    path("api/", include("cacho.api.urls")),
    path("api/", include("cacho.live.urls")),
    path("api/", include("tournaments.notices.urls")),
    path("api/", include("cacho.talk.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("frontend.urls")),
]
