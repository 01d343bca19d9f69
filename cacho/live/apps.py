from django.apps import AppConfig


class LiveConfig(AppConfig):
    name = "cacho.live"
    label = "cacho_live"
    verbose_name = "Cacho live play"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from cacho.live.timers import TIMERS
        from cacho.services import deadlines

        # Embedded mode: the serving process keeps the turn deadlines itself.
        deadlines.register("in-process", TIMERS.schedule)
        from cacho.live.bot_turns import BOTS
        from cacho.services import bot_turns

        bot_turns.register("in-process", BOTS.schedule)
