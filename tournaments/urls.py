"""Root URLconf. The frontend is included by dotted path: the project wires the
top floor in without `tournaments` importing `frontend` (see import contracts)."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from tournaments.health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/", include("tournaments.api.urls")),
    path("api/", include("cacho.api.urls")),
    path("api/", include("cacho.live.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("frontend.urls")),
]
