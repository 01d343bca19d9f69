"""The words of the round clock (the console, the tournament and match pages): its states,
its controls, a round called at time and the appeal period between rounds."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournaments.reads.catalogue import time_policy_names


def clock_labels() -> dict[str, str]:
    return {
        "title": _("Round clock"),
        "round_left": _("Round %(n)s: %(time)s left"),
        "round_paused": _("Round %(n)s, clock paused: %(time)s left"),
        "round_over": _("Round %(n)s: time! %(time)s over"),
        "left": _("%(time)s left"),
        "paused": _("Paused: %(time)s left"),
        "over": _("Time! %(time)s over"),
        "idle": _("The clock has not been started."),
        "finished": _("This round is over."),
        "minutes": _("Minutes"),
        "start": _("Start the clock"),
        "pause": _("Pause"),
        "resume": _("Resume"),
        "extend": _("Add time"),
        "extend_minutes": _("Minutes to add (negative: take away)"),
        "reset": _("Reset"),
        "reset_confirm": _("Reset the round clock? Its time is forgotten (the log keeps it)."),
        # Rounds at time: the console, and the banner at every table of the round
        "call_time": _("End round at time"),
        "call_time_confirm": _(
            "End round %(n)s at time? Every table still playing finishes as the rule says: %(policy)s."
        ),
        "time_called": _("Time has been called: %(policy)s."),
        "time_called_at": _(
            "Time called at %(time)s: tables still playing finish as the rule says (%(policy)s)."
        ),
        # the appeal period between rounds (the console)
        "appeal_next_in": _("Appeal period: the next round is drawn in %(time)s."),
        "appeal_held": _("A referee holds the next round's draw while a dispute is written."),
        "appeal_disputed": _("The next round waits for a dispute on this round to be ruled."),
        "appeal_drawing": _("The appeal period is over: the next round is being drawn."),
        "draw_now_confirm": _(
            "Draw the next round now? The tables of round %(n)s can no longer be disputed once it is drawn."
        ),
        "decided_at_time": _("decided at time"),
        "decided_at_time_banner": _("This table was decided at time: %(policy)s."),
        "policies": time_policy_names(),
    }
