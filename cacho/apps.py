from django.apps import AppConfig


class CachoConfig(AppConfig):
    name = "cacho"
    verbose_name = "Cacho match server"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Imported once the models are: the write path's timers on Celery (cacho.tasks).
        from cacho import tasks
        from cacho.services import deadlines

        deadlines.register("celery", tasks.schedule_deadline)
        from cacho.services import bot_turns

        bot_turns.register("celery", tasks.schedule_bot)

        from cacho.database import django_private

        django_private.install()
