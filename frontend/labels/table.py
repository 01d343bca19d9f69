"""Translated labels of the match page (the table), with the plural forms its ES modules
fill in with a number."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, npgettext, pgettext

from frontend.labels.rules import rule_terms


def plural(forms: Callable[[int], str]) -> dict[str, str]:
    """Both forms of a counted phrase for the page, which picks one with `Intl.PluralRules`
    ("one" or "other": what English and Spanish need). `forms` calls `ngettext` itself, so
    that makemessages finds the phrase as a plural one."""
    return {"one": forms(1), "other": forms(2)}


def table_labels() -> dict[str, Any]:
    """The match page: panels, game log, plain calls, terms, end screen, Alalay turning."""
    return {
        # (a context of its own: "%(n)s die" alone is the replay's singular)
        "dice": plural(lambda n: npgettext("dice held", "%(n)s die", "%(n)s dice", n)),
        "loses": plural(lambda n: ngettext("%(name)s loses a die", "%(name)s loses %(n)s dice", n)),
        "gains": plural(lambda n: ngettext("%(name)s gains a die", "%(name)s gains %(n)s dice", n)),
        "is_out": _("%(name)s is out of the match"),
        "wins": _("%(name)s wins the match"),
        "no_change": _("nobody gains or loses a die"),
        "away": _("away"),
        "away_legend": _("‖ away: not connected to the table right now"),
        "bot": _("bot"),
        "away_name": _("%(name)s is away (not connected)"),
        "connected_name": _("%(name)s is connected"),
        "on_turn": _("on turn"),
        "clock": _("%(s)s s"),
        "faces": {
            "1": pgettext("die face", "ace"),
            "2": pgettext("die face", "two"),
            "3": pgettext("die face", "three"),
            "4": pgettext("die face", "four"),
            "5": pgettext("die face", "five"),
            "6": pgettext("die face", "six"),
        },
        "bid": _("%(q)s × %(face)s"),
        "log": _("Game log"),
        "log_empty": _("Nothing played yet."),
        "log_round": _("Round %(n)s"),
        "log_turn": _("Turn %(n)s · %(name)s"),
        "log_start": _("Start"),
        "log_current": _("now"),
        "log_voided": _("voided by the referee"),
        "calls": {
            "dudo": _("%(caller)s called Dudo on %(target)s's %(bid)s: %(count)s counted"),
            "calza": _("%(caller)s called Calza on %(target)s's %(bid)s: %(count)s counted"),
            "paso": _("%(caller)s doubted %(target)s's Paso"),
            "salpicon": _("%(caller)s denied %(target)s's Salpicón"),
            "restart": _("The round starts again"),
        },
        "call_plain": {
            "dudo": _("%(caller)s called Dudo on %(target)s"),
            "calza": _("%(caller)s called Calza on %(target)s"),
        },
        "auto": _("(time ran out: played automatically)"),
        "events": {
            "match_started": _("The match starts: %(players)s."),
            "round_started": _("%(starter)s opens round %(n)s."),
            "bid_made": _("%(player)s bids %(bid)s."),
            "bid_direction": _("%(player)s bids %(bid)s and sends play %(direction)s."),
            "paso_announced": _("%(player)s says Paso."),
            "salpicon_announced": _("%(player)s announces Salpicón."),
            "player_abandoned": _("%(player)s leaves the match for good."),
            "match_paused": _("The referee pauses the table: %(reason)s"),
            "match_resumed": _("The referee resumes the table: %(reason)s"),
            "ruling_upheld": _("The referee upholds the play: %(reason)s"),
            "round_voided": _("The referee voids round %(round)s and every round after it: %(reason)s"),
            "dice_changed": _("The referee changes %(player)s's dice by %(delta)s: %(reason)s"),
            "result_awarded": _("The referee awards the result (%(places)s): %(reason)s"),
            "dice_thrown": _("%(entry)s throws %(dice)s."),
            "dice_rerolled": _("%(entry)s keeps %(keep)s and throws again: %(dice)s."),
            "die_turned": _("%(entry)s turns die %(n)s to its opposite face."),
            "box_scored": _("%(entry)s scores %(points)s in %(box)s (%(how)s)."),
            "box_scratched": _("%(entry)s crosses out %(box)s."),
            "turn_timed_out": _("%(entry)s ran out of time: the server finishes the turn."),
            "entry_abandoned": _("%(entry)s leaves the match for good."),
            "match_ended": _("The match ends."),
            "turn_corrected": _(
                "The referee corrects turn %(turn)s of %(entry)s: %(box)s, %(points)s: %(reason)s"
            ),
            "penalty_given": _("The referee takes %(points)s points from %(entry)s: %(reason)s"),
            "entry_disqualified": _("The referee disqualifies %(entry)s: %(reason)s"),
            "match_reopened": _("The referee reopens the match from turn %(turn)s: %(reason)s"),
        },
        "nothing_kept": _("nothing"),
        "place": _("%(place)s. %(name)s"),
        "modes": {
            "palifico": _("Palifico round"),
            "obligado": _("Obligado round"),
            "blind": _("Blind round"),
        },
        "terms_title": _("Words of the game"),
        "terms_open": _("What do the words mean?"),
        "terms": rule_terms(),
        "end_title": _("Match over"),
        "end_places": _("Final places"),
        "end_winner": _("Winner: %(names)s"),
        "end_standings": _("The tournament's standings"),
        "end_tournament": _("Back to %(name)s"),
        "end_next": _("Your next match"),
        "end_no_next": _("You have no other match waiting in this tournament."),
        "end_replay": _("Watch the replay"),
        "end_table": _("Round %(round)s, table %(table)s"),
        "end_ruling": _("Referee's ruling: %(reason)s"),
        "appeal_until": _("You can still dispute this table: the next round is drawn in %(time)s."),
        "appeal_after_round": _(
            "You can dispute this table until the next round is drawn, %(minutes)s min after the round's "
            "last table ends."
        ),
        "appeal_held": _("A referee holds the next round's draw while a dispute is written."),
        "appeal_disputed": _("The next round waits for a dispute on this round to be ruled."),
        "appeal_drawing": _("The appeal period is over: the next round is being drawn."),
        "menu": _("Menu"),
        # Alalay
        "may_turn": _("may be turned"),
        "turn_to": _("Turn this %(from)s into a %(to)s"),
        "turn_gives_plain": _("turns into a %(to)s: best %(box)s for %(points)s"),
        "turn_gives_nothing": _("turns into a %(to)s: no box would score"),
        "turn_caption": _("becomes %(to)s: %(box)s %(points)s"),
        "turn_caption_nothing": _("becomes %(to)s: nothing scores"),
        "turn_required": _(
            "Turn one die before you score: tap a marked die to flip it to its opposite face. "
            "Each marked die says the face it becomes and the box it would then score."
        ),
        "turn_optional": _("You may turn a marked die (at most two) to its opposite face before scoring."),
        "why_zero": {
            "ones": _("no ace among the dice"),
            "twos": _("no two among the dice"),
            "threes": _("no three among the dice"),
            "fours": _("no four among the dice"),
            "fives": _("no five among the dice"),
            "sixes": _("no six among the dice"),
            "straight": _("not a straight (1-5, 2-6, or 3-6 with an ace)"),
            "full": _("a full is three of one face and two of another"),
            "four": _("a póker is four dice of one face"),
            "grande_1": _("a grande is five dice of one face"),
            "grande_2": _("a grande is five dice of one face"),
        },
        "why_second_grande": _("the first Grande box fills first"),
        "scratch_now": _("No box scores with these dice: cross one out."),
        "points_now": _("%(n)s now"),
    }
