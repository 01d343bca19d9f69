from django.apps import AppConfig


class CachoConfig(AppConfig):
    name = "cacho"
    verbose_name = "Cacho match server"
    default_auto_field = "django.db.models.BigAutoField"
