from django.apps import AppConfig


class LiveConfig(AppConfig):
    name = "cacho.live"
    label = "cacho_live"
    verbose_name = "Cacho live play"
    default_auto_field = "django.db.models.BigAutoField"
