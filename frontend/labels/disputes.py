"""Translated labels of the disputes: the reasons a player gives, the ruling kinds, and the
words of the dispute and review pages."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from frontend.labels.table import plural


def dispute_reasons() -> dict[str, str]:
    """The reasons a player may give for a dispute (the API's `reason` codes)."""
    return {
        "wrong-result": pgettext("dispute reason", "Wrong result"),
        "misclick": pgettext("dispute reason", "Misclick"),
        "timeout": pgettext("dispute reason", "Disconnection or timeout"),
        "collusion": pgettext("dispute reason", "Suspected collusion"),
        "scorekeeping": pgettext("dispute reason", "Scorekeeping error"),
        "other": pgettext("dispute reason", "Other"),
    }


def ruling_kinds() -> dict[str, str]:
    """The rulings a referee may commit (the engine's `kind` codes)."""
    return {
        "uphold": pgettext("ruling", "Uphold (no change)"),
        "void-round": pgettext("ruling", "Void a round"),
        "adjust-dice": pgettext("ruling", "Adjust dice"),
        "correct-turn": pgettext("ruling", "Correct a turn"),
        "award-result": pgettext("ruling", "Award the result"),
        "penalty": pgettext("ruling", "Penalty"),
        "disqualify": pgettext("ruling", "Disqualify"),
        "reopen": pgettext("ruling", "Reopen the match"),
        "pause": pgettext("ruling", "Pause"),
        "resume": pgettext("ruling", "Resume"),
    }


def dispute_labels() -> dict[str, Any]:
    return {
        "reasons": dispute_reasons(),
        "kinds": ruling_kinds(),
        "trail": {
            "filed": pgettext("dispute trail", "Filed"),
            "comment": pgettext("dispute trail", "Comment"),
            "paused": pgettext("dispute trail", "Table paused"),
            "resumed": pgettext("dispute trail", "Table resumed"),
            "ruled": pgettext("dispute trail", "Ruling"),
            "withdrawn": pgettext("dispute trail", "Withdrawn"),
            "assigned": _("Referee assigned"),
            "appealed": _("Ruling appealed"),
        },
        # the referees' tools: who handles it, their own notes, an appeal of the ruling
        "assigned_to": _("Handled by"),
        "nobody": _("nobody yet"),
        "claimed": _("You handle this dispute now."),
        "note_added": _("Note added."),
        "no_notes": _("No notes yet."),
        "appeal_of": _("Appeals"),
        "appeals": _("Appealed by"),
        "appealed": _("Appeal filed: dispute #%(n)s."),
        # the review follows the match live; what a void-round undoes
        "live": _("Following the match live."),
        "voids": _(
            "Voiding round %(round)s undoes rounds %(rounds)s: their dice seeds are revealed, and the "
            "table plays on from there."
        ),
        "voids_preview": _("This ruling undoes rounds %(rounds)s."),
        "statuses": {
            "open": pgettext("dispute status", "open"),
            "ruled": pgettext("dispute status", "ruled"),
            "withdrawn": pgettext("dispute status", "withdrawn"),
        },
        "params": {
            "round": _("Round"),
            "turn": _("Turn (counted over the match)"),
            "player": _("Player"),
            "delta": _("Dice to award (+) or remove (−)"),
            "box": _("Box"),
            "points": _("Points"),
            "scratch": _("Scratch the box"),
            "seat": _("Seat"),
            "dice": _("Dice removed"),
            "penalty_points": _("Points deducted"),
            "placements": _("Place of each seat (1 = best)"),
        },
        "dispute": _("Dispute"),
        "dispute_n": _("Dispute #%(n)s"),
        "file": _("File the dispute"),
        "cancel": _("Cancel"),
        "filed": _("Dispute filed."),
        "see_dispute": _("See dispute #%(n)s"),
        "your_disputes": _("Disputes at this table"),
        "paused_by_referee": _("Paused by the referee: %(reason)s"),
        "queue_count": _("Open disputes: %(n)s"),
        "queue_empty": _("No open disputes in your clubs."),
        "queue_new": _("New dispute: %(match)s, %(reason)s"),
        "signals": {
            "count": _("Signals: %(n)s"),
            "none": _("No signal in this club's finished matches."),
            "no_clubs": _("You referee no club."),
            "rounds_read": _("Computed from %(n)s rounds of the club's finished matches."),
            "strength": _("Strength %(n)s"),
            "p_value": _("chance under fair play %(p)s"),
            "evidence_n": _("The rounds (%(n)s)"),
            "round_of_match": _("Round %(n)s of match %(match)s"),
            "this_match": _("this match"),
            "about_players": plural(
                lambda n: ngettext(
                    "%(n)s signal names %(names)s, from %(rounds)s rounds of the club's finished matches.",
                    "%(n)s signals name %(names)s, from %(rounds)s rounds of the club's finished matches.",
                    n,
                )
            ),
            "none_about_players": _(
                "No signal names %(names)s in %(rounds)s rounds of the club's finished matches."
            ),
            "no_accounts": _("No player at this table has an account: signals follow accounts."),
        },
        "open": _("Open"),
        "tournament": _("Tournament"),
        "table_round": _("Table / round"),
        "match": _("Match"),
        "reason": _("Reason"),
        "filed_by": _("Filed by"),
        "age": _("Age"),
        "filed_at": _("Filed at"),
        "pinned": _("Pinned"),
        "window_closes": _("Appeal window closes"),
        "round_n": _("Round %(n)s"),
        "turn_n": _("Turn %(n)s"),
        "version_n": _("Event %(n)s"),
        "table_n_round_n": _("Table %(table)s · round %(round)s"),
        "by_at": _("%(by)s, %(at)s"),
        "ruling": _("Ruling"),
        "comment_added": _("Comment added."),
        "paused": _("The table is paused."),
        "running": _("The table is running."),
        "view_as": _("View as"),
        "as_referee": _("Referee (all dice)"),
        "as_spectator": _("Spectator"),
        "auto_play": _("automatic play (time ran out)"),
        "referee_act": _("referee"),
        "step_time": _("at %(time)s"),
        "hands": _("Dice under the cups"),
        "no_hands": _("No hidden dice visible to this viewer."),
        "pinned_step": _("the step the dispute points at"),
        "fairness": _("Fairness proof of this round"),
        "commitment": _("Commitment"),
        "seed": _("Revealed seed"),
        "not_revealed": _("not revealed yet"),
        "scope": _("Scope"),
        "verified": _("Verified: the dice are the committed seed's."),
        "not_verified": _("Not verified yet: the seed is still secret."),
        "broken": _("The match does not verify: %(reason)s at event %(v)s (%(message)s)"),
        "preview_title": _("Standings: now and after this ruling"),
        "current": _("Now"),
        "after": _("After the ruling"),
        "changed": _("rank changes"),
        "no_change": _("No entry changes rank."),
        "ruled": _("Ruling committed."),
        "choose": _("Choose…"),
        # gaps: presence on the review's timeline, the final ranking in the preview
        "presence": {
            "connected": _("%(name)s connected"),
            "disconnected": _("%(name)s disconnected"),
            "reconnected": _("%(name)s reconnected"),
        },
        "presence_since": _("Connections since the previous step"),
        "ranking_title": _("Final ranking: now and after this ruling"),
        "ranking_none": _("The tournament has not finished: its final ranking comes at its end."),
        "ranking_same": _("No entry changes place in the final ranking."),
        "place_changes": _("place changes"),
    }
