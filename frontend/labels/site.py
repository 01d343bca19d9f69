"""Translated labels handed to the ES modules (`{{ labels|json_script:"labels" }}`). The ruleset
options and stage formats, with their explanations, come from `tournaments.reads.catalogue`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, npgettext, pgettext

from tournaments.models import Entry, Membership, Round, Stage, Table, Tournament
from tournaments.reads import catalogue
from tournaments.services.stage_data import DEFAULT_STAGE_NAMES


def _statuses() -> dict[str, str]:
    """Every status code a page shows (tournament, stage, round, table, entry, match)."""
    names: dict[str, str] = {}
    for model in (Tournament, Stage, Round, Table, Entry):
        for code, name in model.STATUS_CHOICES:
            names.setdefault(code, str(name))
    names["registration"] = pgettext("tournament status", "registration open")
    names["live"] = _("live")
    return names


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
            "about_players": _plural(
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


def labels() -> dict[str, Any]:
    return {
        "disputes": dispute_labels(),
        # table
        "you": _("You"),
        "deleted_player": _("deleted player %(n)s"),
        "turn_of": _("Turn of %(name)s"),
        "your_turn": _("Your turn!"),
        "seconds_left": _("%(s)s s left"),
        "dice_count": _("%(n)s dice"),
        "out": _("Out"),
        "abandoned": _("Left the table"),
        "spectator": _("You are watching: only public information is shown."),
        "referee_view": _("Referee view: you see every die, the players' hidden ones included."),
        "spectators": _("Spectators: %(n)s"),
        "your_dice": _("Your dice"),
        "all_dice": _("Every player's dice"),
        "hidden_dice": _("Your dice are hidden this round."),
        "no_bid": _("No bid yet"),
        "current_bid": _("Current bid"),
        "history": _("Bid history"),
        "round": _("Round %(n)s"),
        "quantity": _("Quantity"),
        "face": _("Face"),
        "min_hint": _("at least %(n)s"),
        "bid": _("Bid"),
        "direction": _("Direction"),
        "cw": _("Clockwise"),
        "ccw": _("Counter-clockwise"),
        "dudo": _("Dudo!"),
        "calza": _("Calza!"),
        "paso": _("Paso"),
        "salpicon": _("Salpicón"),
        "deny": _("Deny"),
        "believe": _("Believe (raise)"),
        "abandon": _("Abandon"),
        "abandon_confirm": _("Leave this match for good?"),
        "reveal": _("Reveal"),
        "players": _("Players"),
        "skip": _("Skip"),
        "bid_was": _("The bid"),
        "counting": _("Counted:"),
        "aces_wild": _("Aces (ones) are wild and count too"),
        "count_was": _("There were %(count)s × %(face)s (bid: %(q)s × %(face)s)."),
        "result": _("Result"),
        "lost_die": _("%(name)s loses %(n)s die"),
        "gained_die": _("%(name)s gains %(n)s die"),
        "eliminated": _("%(name)s is out"),
        "winner": _("%(name)s wins the match!"),
        "timed_out": _("(time ran out: automatic play)"),
        "mode_palifico": _("Palifico round: aces are not wild, the face is fixed"),
        "mode_obligado": _("Obligado round: you do not see your own dice"),
        "mode_blind": _("Blind round (a ciegas): nobody sees their dice"),
        "mode_normal": _("Normal round"),
        "connecting": _("Connecting…"),
        "connected": _("Connected"),
        "reconnecting": _("Connection lost, reconnecting…"),
        "error": _("Error"),
        "finished": _("Match finished"),
        "replay": _("Step-by-step replay"),
        "act": {
            "bid": _("bids"),
            "dudo": _("calls dudo"),
            "calza": _("calls calza"),
            "paso": _("says paso"),
            "salpicon": _("says salpicón"),
            "deny": _("denies"),
        },
        "result_kind": {
            "dudo": _("Dudo called"),
            "calza": _("Calza called"),
            "paso": _("Paso challenged"),
            "salpicon": _("Salpicón"),
            "restart": _("Round restarted"),
        },
        # alalay
        "boxes": catalogue.box_names(),
        "throw": _("Throw"),
        "reroll": _("Re-roll the others"),
        "keep_hint": _("Choose the dice to keep, then re-roll the others."),
        "turn_die": _("Turn this die"),
        "must_turn": _("You must turn a die before scoring."),
        "score": _("Score"),
        "scratch": _("Scratch"),
        "would_give": _("%(n)s now"),
        "de_mano": _("de mano"),
        "de_huevo": _("de huevo"),
        "total": _("Total"),
        "win_reason": {
            "dormida": _("La dormida! Five of a kind in one throw."),
            "panza-de-oro": _("Panza de oro! Straight, full, póker and a grande."),
            "four-in-every-number": _("Four or better in every number!"),
            "points": _("Most points."),
            "last-standing": _("The others left: the last one at the table wins."),
            "at-time": _("Decided at time: the totals as they stand."),
        },
        # replay
        "first": _("First"),
        "previous": _("Previous"),
        "next": _("Next"),
        "last": _("Last"),
        "step": _("Step %(i)s of %(n)s"),
        # tournaments
        "loading": _("Loading…"),
        "none": _("Nothing yet."),
        "entries": _("Entries"),
        "rounds": _("Rounds"),
        "standings": _("Standings"),
        "table": _("Table %(n)s"),
        "watch": _("Watch"),
        "live": _("live"),
        "status": _("Status"),
        "saved": _("Saved."),
        "checked_in": _("checked in"),
        "check_in": _("Check in"),
        "started": _("Tournament started."),
        "created": _("Tournament “%(name)s” created. The form is ready for the next one."),
        "imported": _("Imported: nothing refused. Open the match"),
        "refused": _("Refused, nothing was saved"),
        "statuses": _statuses(),
        "roles": {code: str(name) for code, name in Membership.ROLE_CHOICES},
        "rulesets": catalogue.ruleset_names(),
        "criteria": catalogue.criteria_names(),
        "formats": {f["format"]: f["name"] for f in catalogue.formats()},
        "default_stage_names": list(DEFAULT_STAGE_NAMES),
        "ruleset": _("Ruleset"),
        "format": _("Format"),
        "turn_time": _("Turn time"),
        "played": pgettext("standings column", "Played"),
        "points": pgettext("standings column", "Points"),
        "place": pgettext("standings column", "Place"),
        "entry": pgettext("standings column", "Entry"),
        "group": pgettext("standings column", "Group"),
        "tiebreak": pgettext("standings column", "Tiebreak"),
        "final_ranking": _("Final ranking"),
        "podium_places": {
            "1": pgettext("podium", "1st"),
            "2": pgettext("podium", "2nd"),
            "3": pgettext("podium", "3rd"),
        },
        "shared_place": pgettext("podium", "shared"),
        "print": _("Print"),
        "manage": _("Manage %(name)s"),
        "no_clubs": _(
            "You own or organise no club yet: create one, or ask a club's owner to make you an organiser."
        ),
        "stage_n": _("Stage %(n)s"),
        "stage_name": _("Stage name"),
        "remove_stage": _("Remove this stage"),
        "move_up": _("Move up"),
        "move_down": _("Move down"),
        "advance": _("Who goes on to the next stage"),
        "advance_per_group": _("The best of each group"),
        "advance_overall": _("The best overall"),
        "per_group": _("Places per group"),
        "wildcards": _("Wildcards (best of the next place)"),
        "overall": _("How many go on"),
        "last_stage": _("The last stage ranks the tournament."),
        "groups_stage": pgettext("stage name", "Groups"),
        "playoffs_stage": pgettext("stage name", "Playoffs"),
        "checkin_until": _("Check-in until %(when)s"),
        "problem": _("Results of this tournament are held up (retried every few seconds): %(message)s"),
        "event_types": {
            "match_started": _("The match starts"),
            "round_started": _("A round starts"),
            "bid_made": _("Bid"),
            "paso_announced": _("Paso"),
            "salpicon_announced": _("Salpicón"),
            "round_resolved": _("Reveal"),
            "player_abandoned": _("A player leaves"),
            "dice_thrown": _("Throw"),
            "dice_rerolled": _("Re-roll"),
            "die_turned": _("A die turned"),
            "box_scored": _("Box scored"),
            "box_scratched": _("Box scratched"),
            "match_ended": _("The match ends"),
            "match_paused": _("The referee pauses the table"),
            "match_resumed": _("The table resumes"),
            "ruling_upheld": _("The referee upholds the play"),
            "round_voided": _("The referee voids the round"),
            "dice_changed": _("The referee changes the dice"),
            "result_awarded": _("The referee awards the result"),
            "turn_corrected": _("The referee corrects a turn"),
            "penalty_given": _("The referee gives a penalty"),
            "entry_disqualified": _("The referee disqualifies a player"),
            "match_reopened": _("The referee reopens the match"),
            "round_recorded": _("A round entered by its outcome"),
            "entry_undone": _("The scorekeeper undoes the last entry"),
        },
        # gaps: a round played again after a referee voided one (the log, the replay, the review)
        "round_replays": _("Round %(n)s — replays round %(of)s"),
    }


def replay_labels() -> dict[str, Any]:
    """The replay's words: every event in plain language (never its type code), the rule terms
    explained in a line each, the scrub bar, the download and the link to a moment."""
    return {
        "decided_at_time": _("decided at time"),
        "scrub": _("Step"),
        "jump_round": _("Jump to round"),
        "jump_turn": _("Jump to turn"),
        "round_n": _("Round %(n)s"),
        "turn_n": _("Turn %(n)s"),
        "start": _("Before the first round"),
        "start_turns": _("Before the first turn"),
        "moves": _("Moves"),
        "download": _("Download the record (.json)"),
        "copy_link": _("Copy a link to this moment"),
        "copied": _("Link copied: it opens the replay at this step."),
        "copy_failed": _("Copy this link by hand:"),
        "not_finished": _("The record can be downloaded once the match is over."),
        "terms": _("The rules in brief"),
        "terms_here": _("What it means"),
        "faces": {
            "1": pgettext("die face", "ace"),
            "2": pgettext("die face", "two"),
            "3": pgettext("die face", "three"),
            "4": pgettext("die face", "four"),
            "5": pgettext("die face", "five"),
            "6": pgettext("die face", "six"),
        },
        # Singular and plural forms for the counts the JavaScript fills in (it picks by n).
        "dice_one": _("%(n)s die"),
        "dice_many": _("%(n)s dice"),
        "loses": _("%(name)s loses %(dice)s."),
        "gains": _("%(name)s gains %(dice)s."),
        "out": _("%(name)s is out of the match."),
        "wins": _("%(name)s wins the match."),
        "auto": _("Time ran out: played automatically."),
        "words": {
            "match_started": _("The match starts: %(players)s."),
            "round_started": _("Round %(n)s starts; %(starter)s opens."),
            "bid_made": _("%(player)s bids %(q)s × %(face)s."),
            "paso_announced": _("%(player)s says paso."),
            "salpicon_announced": _("%(player)s says salpicón."),
            "dudo": _("%(caller)s calls dudo on %(target)s's bid of %(q)s × %(face)s: there were %(count)s."),
            "calza": _(
                "%(caller)s calls calza on %(target)s's bid of %(q)s × %(face)s: there were %(count)s."
            ),
            "paso": _("%(caller)s doubts %(target)s's paso."),
            "salpicon": _("%(caller)s denies %(target)s's salpicón."),
            "restart": _("The round is played again."),
            "player_abandoned": _("%(player)s leaves the match."),
            "turn_timed_out": _("%(entry)s ran out of time: the turn is played automatically."),
            "dice_thrown": _("%(entry)s throws %(dice)s."),
            "dice_rerolled": _("%(entry)s throws the others again: %(dice)s."),
            "die_turned": _("%(entry)s turns die %(n)s over to its opposite face."),
            "box_scored": _("%(entry)s scores %(points)s in %(box)s, %(how)s."),
            "box_scratched": _("%(entry)s scratches %(box)s (no points)."),
            "entry_abandoned": _("%(entry)s leaves the match."),
            "match_ended": _("The match ends: %(winners)s wins."),
            "match_ended_none": _("The match ends with no winner."),
            "match_paused": _("The referee pauses the match: %(reason)s"),
            "match_resumed": _("The referee resumes the match: %(reason)s"),
            "ruling_upheld": _("The referee upholds the play: %(reason)s"),
            "round_voided": _("The referee voids round %(round)s: %(reason)s"),
            "dice_changed": _("The referee changes %(player)s's dice by %(delta)s: %(reason)s"),
            "result_awarded": _("The referee awards the result (%(placements)s): %(reason)s"),
            "turn_corrected": _(
                "The referee corrects turn %(turn)s of %(entry)s to %(points)s in %(box)s: %(reason)s"
            ),
            "penalty_given": _("The referee deducts %(points)s points from %(entry)s: %(reason)s"),
            "entry_disqualified": _("The referee disqualifies %(entry)s: %(reason)s"),
            "match_reopened": _("The referee reopens the match from turn %(turn)s: %(reason)s"),
            "entry_undone": _("The scorekeeper undoes the last entry."),
            # rounds at time (docs/rules.md §9.1)
            "time_called": _("Time is called: %(policy)s decides the table once the play under way ends."),
            "decided_at_time": _("The table is decided at time: %(standing)s."),
            "players_set_aside": _(
                "Sudden death: %(players)s sit out with the dice they hold; %(starter)s opens."
            ),
            "other": _("A match event."),
        },
        # A physical table's round entered by its outcome (no die known).
        "recorded": {
            "dudo": _("%(caller)s calls dudo on %(target)s's bid (entered by its outcome)."),
            "calza": _("%(caller)s calls calza (entered by its outcome)."),
            "paso": _("%(caller)s doubts %(target)s's paso (entered by its outcome)."),
            "salpicon": _("%(caller)s denies %(target)s's salpicón (entered by its outcome)."),
            "restart": _("%(caller)s leaves the table between two rounds."),
        },
        # Card titles for the events `labels()["event_types"]` does not name.
        "kinds": {
            "turn_timed_out": _("Time ran out"),
            "entry_abandoned": _("A player leaves"),
            "match_paused": _("Paused by the referee"),
            "match_resumed": _("Resumed by the referee"),
            "ruling_upheld": _("Ruling: play upheld"),
            "round_voided": _("Ruling: round voided"),
            "dice_changed": _("Ruling: dice changed"),
            "result_awarded": _("Ruling: result awarded"),
            "turn_corrected": _("Ruling: turn corrected"),
            "penalty_given": _("Ruling: penalty"),
            "entry_disqualified": _("Ruling: disqualified"),
            "match_reopened": _("Ruling: match reopened"),
            "time_called": _("Time called"),
            "decided_at_time": _("Decided at time"),
            "players_set_aside": _("Sudden death"),
        },
        "policies": catalogue.time_policy_names(),
        "glossary": rule_terms(),
    }


def tournament_page_labels() -> dict[str, Any]:
    """The tournament page's words: each table's result, live tables, the rounds diagram."""
    return {
        "watch_table": _("Watch table %(n)s of round %(r)s: %(players)s"),
        "open_table": _("Table %(n)s of round %(r)s: %(players)s, %(status)s"),
        "result_line": _("%(place)s. %(name)s"),
        "dice_left_one": _("%(n)s die left"),
        "dice_left_many": _("%(n)s dice left"),
        "points_n": _("%(n)s points"),
        "waiting": _("Waiting for the players"),
        # the standings: an entry some of whose tables time decided (docs/rules.md §9.1)
        "standing_at_time": pgettext("standings", "decided at time"),
        "standing_at_time_title": _("Time decided %(n)s of this entry's tables."),
    }


def lobby_labels() -> dict[str, Any]:
    """The lobby (home), "My matches" and the players' pages (`lobby.js`, `matches-list.js`)."""
    return {
        "watch": _("Watch"),
        "play": _("Go to the table"),
        "your_turn": _("It is your turn"),
        "waiting_in": _("You are entered in %(name)s: your next table appears here when it is drawn."),
        "no_next": _("No match of yours right now."),
        "no_tables": _("No table is being played right now."),
        "no_tournaments": _("None right now."),
        "no_player_tournaments": _("No tournament yet."),
        "bid": _("Bid: %(q)s × %(face)s by %(name)s"),
        "no_bid_yet": _("No bid yet this round"),
        "round": _("Round %(n)s"),
        "paused": _("Paused by the referee"),
        "to_act": _("%(name)s to play"),
        "dice_of": _("%(n)s dice"),
        "die_of": _("1 die"),
        "points": _("%(n)s points"),
        "out": _("out"),
        # %(c)s and %(p)s are percentages with their sign ("80 %").
        "interest": _("Why on TV: standings closeness %(c)s · bid pressure %(p)s"),
        "interest_alalay": _("Why on TV: standings closeness %(c)s · card filled %(p)s"),
        "no_other_tables": _("No other table right now."),
        "entries": _("%(n)s entries"),
        "entry_one": _("1 entry"),
        "casual": _("Casual match"),
        "table_in": _("%(name)s · round %(round)s, table %(table)s"),
        "vs": _("against"),
        "placement": _("Place %(n)s of %(m)s"),
        "won": _("Won"),
        "live": _("Live"),
        "replay": _("Replay"),
        "open": _("Open"),
        "nothing": _("No match matches these filters."),
        "page": _("Page %(page)s of %(pages)s"),
        "previous": _("Previous"),
        "next": _("Next"),
        "count_one": _("1 match"),
        "count": _("%(n)s matches"),
        "final_place": _("Final place: %(n)s of %(m)s"),
        "playing_as": _("as %(name)s"),
        "error": _("Could not load this list."),
        "statuses": {
            "live": _("live"),
            "finished": pgettext("match status", "finished"),
        },
    }


def _plural(forms: Callable[[int], str]) -> dict[str, str]:
    """Both forms of a counted phrase for the page, which picks one with `Intl.PluralRules`
    ("one" or "other": what English and Spanish need). `forms` calls `ngettext` itself, so
    that makemessages finds the phrase as a plural one."""
    return {"one": forms(1), "other": forms(2)}


def table_labels() -> dict[str, Any]:
    """The match page: panels, game log, plain calls, terms, end screen, Alalay turning."""
    return {
        # (a context of its own: "%(n)s die" alone is the replay's singular)
        "dice": _plural(lambda n: npgettext("dice held", "%(n)s die", "%(n)s dice", n)),
        "loses": _plural(lambda n: ngettext("%(name)s loses a die", "%(name)s loses %(n)s dice", n)),
        "gains": _plural(lambda n: ngettext("%(name)s gains a die", "%(name)s gains %(n)s dice", n)),
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


def rule_terms() -> dict[str, tuple[str, str]]:
    """Each rule term the pages explain (the table's panel, the replay's steps): its name and
    one plain sentence, the same words everywhere."""
    return {
        "dudo": (
            _("Dudo"),
            _(
                "“I doubt it.” You say the last bid is too high. The dice are shown: if there are "
                "fewer than the bid said, the bidder loses a die; otherwise you do."
            ),
        ),
        "calza": (
            _("Calza"),
            _(
                "“It is exact.” You say there are exactly as many dice as the bid said. Right, "
                "you win a die back (never above five); wrong, you lose one."
            ),
        ),
        "palifico": (
            _("Palifico"),
            _(
                "The round after a player comes down to a single die. The first bid fixes the "
                "face for the whole round and aces count only as themselves."
            ),
        ),
        "paso": (
            _("Paso"),
            _(
                "Instead of bidding you claim your own dice are all alike, all different, or a "
                "full house. The next player may doubt the claim; only your dice are then shown."
            ),
        ),
        "salpicon": (
            _("Salpicón"),
            _(
                "A claim about your own dice made once per round. The next player believes it and "
                "raises, or denies it and your dice are shown."
            ),
        ),
        "de_mano": (
            _("De mano"),
            _("Made with one throw of the dice: the straight, full and póker are worth more that way."),
        ),
        "de_huevo": (
            _("De huevo"),
            _("Made after throwing again or turning a die: worth a little less than de mano."),
        ),
        "turning": (
            _("Turning"),
            _(
                "Flipping one die over to its opposite face (1 and 6, 2 and 5, 3 and 4). After a "
                "second throw of every die a turn may be required before you score."
            ),
        ),
        "dormida": (
            _("Dormida"),
            _("Five dice of the same face in a single throw: the player wins the match at once."),
        ),
        "obligado": (
            _("Obligado"),
            _(
                "A round while someone holds one die: only they see their die, the first bid's face "
                "is kept, aces are not wild, and the only answers are a raise or dudo."
            ),
        ),
        "aces": (
            _("Aces wild"),
            _("Ones count as any face, unless the bid is on ones or the round says otherwise."),
        ),
        "scratch": (
            _("Scratch"),
            _("Filling a box with nothing: it scores no points but uses up the turn."),
        ),
    }


def scorekeeper_labels() -> dict[str, Any]:
    """The scorekeeper screen of a physical table (`scorekeeper.js`): every word it shows,
    and the rules' words for the refusals a scorekeeper meets most (by the engine's code)."""
    return {
        "title": _("Scorekeeper"),
        "table_round": _("Table %(n)s · Round %(r)s"),
        "version": _("Entry %(n)s"),
        "not_keeper": _("Only the club's scorekeepers, organisers and referees keep score at this table."),
        "not_physical": _("This table is played online: nothing is entered here."),
        "reloaded": _("The sheet moved on (another device?): it is reloaded."),
        "paused": _("The referee paused this table: %(reason)s"),
        "undo": pgettext("scorekeeper", "Undo"),
        "last_entry": _("Last entry: %(what)s"),
        "undone_kinds": {
            "round_recorded": _("a round's outcome"),
            "round_started": _("the round's dice"),
            "bid_made": _("a bid"),
            "paso_announced": _("a paso"),
            "salpicon_announced": _("a salpicón"),
            "round_resolved": _("the call ending the round"),
            "player_abandoned": _("a player leaving"),
            "dice_thrown": _("the throw"),
            "dice_rerolled": _("the re-roll"),
            "die_turned": _("a turned die"),
            "box_scored": _("the box scored"),
            "box_scratched": _("the box scratched"),
            "entry_abandoned": _("a player leaving"),
        },
        "next_round": _("Round %(n)s · %(name)s opens · %(mode)s"),
        "modes": {
            "normal": pgettext("scorekeeper", "normal"),
            "palifico": pgettext("scorekeeper", "palifico"),
            "obligado": pgettext("scorekeeper", "obligado"),
            "blind": pgettext("scorekeeper", "blind"),
        },
        "by_outcome": _("By its outcome"),
        "enter_dice": _("Every die and bid"),
        "what_call": _("What ended the round?"),
        "calls": {
            "dudo": _("Dudo"),
            "calza": _("Calza"),
            "paso": _("Doubted paso"),
            "salpicon": _("Denied salpicón"),
        },
        "who_called": _("Who called it?"),
        "against": _("answering %(name)s"),
        "what_happened": _("Who lost, or gained?"),
        "loses": pgettext("scorekeeper", "%(name)s loses a die"),
        "calza_exact": _("Exact: %(name)s gains a die"),
        "calza_exact_five": _("Exact: %(name)s keeps 5 dice"),
        "calza_wrong": _("Wrong: %(name)s loses %(n)s"),
        "opens_next": _("%(name)s opens next"),
        "is_out": _("%(name)s is out"),
        "wins": _("%(name)s wins the match"),
        "confirm_entry": _("Confirm the entry"),
        "dice_help": _("Each player's dice, as the cups were lifted for the scorekeeper."),
        "clear": pgettext("scorekeeper", "Clear"),
        "confirm_dice": _("Confirm the dice"),
        "to_act": _("%(name)s to act"),
        "standing_bid": _("Bid: %(q)s × %(face)s by %(name)s"),
        "no_bid": _("No bid yet"),
        "quantity": _("Quantity"),
        "less": _("One less"),
        "more": _("One more"),
        "bid_of": _("Bid %(q)s × %(face)s"),
        "legal": pgettext("scorekeeper", "Legal"),
        "checking": _("Checking…"),
        "call_of": {
            "dudo": _("%(name)s: dudo"),
            "calza": _("%(name)s: calza"),
            "paso": _("%(name)s: paso"),
            "salpicon": _("%(name)s: salpicón"),
            "deny": _("%(name)s denies the salpicón"),
        },
        "out_of_turn": _("Calza out of turn"),
        "someone_leaves": _("A player leaves the table"),
        "leaves": _("%(name)s leaves"),
        "leaves_confirm": _("Confirm: %(name)s leaves for good"),
        "turn_of": _("%(name)s's turn"),
        "member": _("thrown by %(name)s"),
        "throw_help": _("The five dice of the throw:"),
        "throw": _("Throw"),
        "keep_help": _("Tap the dice kept, then enter the dice thrown again:"),
        "reroll": _("Re-roll"),
        "turn_help": _("Tap a die to turn it to its opposite face."),
        "must_turn": _("A die must be turned before scoring."),
        "turn_die": _("Turn the %(face)s"),
        "score_box": _("%(box)s · %(n)s"),
        "scratch_box": _("Scratch %(box)s"),
        "over": _("The match is over. Each player confirms the sheet on this device:"),
        "password_of": _("%(name)s's password"),
        "type_name": _("%(name)s types their name"),
        "confirm": pgettext("scorekeeper", "Confirm"),
        "confirmed": pgettext("scorekeeper", "Confirmed"),
        "closed": _("Table closed: its result is recorded and in the standings."),
        "sheet": _("The sheet"),
        "round_n": _("R%(n)s"),
        "dice_left": _("Dice held"),
        "outcome_words": {
            "dudo": _("%(by)s doubted %(against)s's bid"),
            "calza": _("%(by)s called calza"),
            "paso": _("%(by)s doubted %(against)s's paso"),
            "salpicon": _("%(by)s denied %(against)s's salpicón"),
            "restart": _("%(by)s left the table"),
            "ruling": _("a referee's ruling"),
            "at-time": _("The dice held at time"),
        },
        "state_at_time": _("Time is called: the round under way"),
        "state_at_time_help": _(
            "Enter its outcome above, or the dice each player holds now that it has ended."
        ),
        "state_at_time_send": _("Enter the dice held at time"),
        "change": _("%(name)s %(delta)s"),
        "winner": _("Winner: %(name)s"),
        "places_at_time": _("Places at time: %(places)s"),
        "total": _("Total"),
        "import_title": _("Import a record file"),
        "import_help": _(
            "A cacho-match/1 record of this table (its players in seat order). The engine checks "
            "it; nothing is saved unless it is valid."
        ),
        "import_button": _("Import the file"),
        "imported": _("Imported: the sheet below is the record's."),
        "my_tables": _("Tables where you keep score"),
        "no_tables": _("No physical table of your clubs is in play."),
        "open_sheet": _("Open the sheet"),
        "keep_score": _("Keep score"),
        "physical": pgettext("scorekeeper", "physical"),
        # The refusals met most at a physical table, in the rule's words (by the engine's code).
        "rules": {
            "outcome-loser": _("The loser is the caller or the player answered."),
            "state-at-time-impossible": _(
                "No outcome of the round leaves these dice: one player a die fewer, a calza's "
                "caller a die more or its penalty fewer, or the dice as they are."
            ),
            "state-at-time-players": _("Give the dice of every player holding dice, and only theirs."),
            "outcome-wrong-target": _("A call answers the player before the caller in this direction."),
            "calza-with-five-dice": _("Calza needs fewer than 5 dice."),
            "calza-disabled": _("Calzo is off: fewer dice than the threshold are left."),
            "calza-in-palifico": _("No calza in a palifico round."),
            "calza-in-obligado": _("No calzo in an obligado round."),
            "calza-with-two-players": _("No calza while two players hold dice."),
            "paso-in-obligado": _("No paso in an obligado round."),
            "salpicon-needs-five-dice": _("A salpicón needs all 5 dice."),
            "dice-mismatch": _("Each player's dice must be as many as they hold."),
            "invalid-face": _("Dice show faces 1 to 6."),
            "bid-not-higher": _("That bid does not raise the standing bid."),
            "bid-exceeds-dice": _("That is more dice than there are in play."),
            "invalid-quantity": _("A bid is of one die or more."),
            "face-locked": _("The face is fixed in this round."),
            "opening-on-ones": _("No opening on aces outside palifico."),
            "not-your-turn": _("It is another player's turn."),
            "wrong-dice-count": _("A throw has five dice."),
            "kept-dice-not-thrown": _("The dice kept must come from the first throw."),
            "nothing-rerolled": _("A re-roll throws 1 to 5 dice."),
            "turn-required": _("One die must be turned after the second throw."),
            "score-is-zero": _("That box is worth 0 with these dice: it is a scratch."),
            "scratch-not-allowed": _("No scratch while a box scores, nor after the first throw."),
            "box-not-open": _("That box is filled already."),
            "nothing-to-undo": _("Only the last entry can be undone, once, until the next one."),
            "table-closed": _("This table is closed: its result is recorded."),
            "sheet-not-finished": _("The match is not over: its sheet is confirmed at the end."),
            "confirm-name-mismatch": _("That is not the name this player plays under."),
            "confirm-password-wrong": _("That is not this player's password."),
            "confirm-password-missing": _("This player confirms with their password."),
            "import-players-mismatch": _("The record's players must be the table's, in seat order."),
            "sheet-not-empty": _("Entries are made at this table already: a record replaces none."),
        },
    }
