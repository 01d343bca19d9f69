"""What an organiser chooses from, in plain language: each ruleset with its game and its
options (allowed values and default from the engine, a title and a help text translated
here), the stage formats with their parameters and the games they suit, the standings'
points scales and bye points, the names of the standings criteria, and the names of the
Alalay scoresheet's boxes.

Served by `GET /api/rulesets` and used by the organiser console. Every text is translated
when the function is called, so call these inside a request (its language is active).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from tournaments import matches
from tournaments.competition import tables
from tournaments.services.stage_data import ELIMINATION, SCORES, competed_by, usual_stages


def ruleset_names() -> dict[str, str]:
    return {
        "dudo": pgettext("ruleset", "Dudo"),
        "cacho-chileno": pgettext("ruleset", "Cacho chileno"),
        "cacho-online": pgettext("ruleset", "Cacho online"),
        "liars-dice": pgettext("ruleset", "Liar's dice"),
        "alalay": pgettext("ruleset", "Cacho Alalay"),
    }


def box_names() -> dict[str, str]:
    """The names a table calls the Alalay scoresheet's boxes (the engine's box codes, in its
    order), for the live table, the scorekeeper and the printed sheets alike."""
    return {
        "ones": pgettext("alalay box", "Balas (ones)"),
        "twos": pgettext("alalay box", "Tontos (twos)"),
        "threes": pgettext("alalay box", "Trenes (threes)"),
        "fours": pgettext("alalay box", "Cuadras (fours)"),
        "fives": pgettext("alalay box", "Quinas (fives)"),
        "sixes": pgettext("alalay box", "Cenas (sixes)"),
        "straight": pgettext("alalay box", "Escalera (straight)"),
        "full": pgettext("alalay box", "Full"),
        "four": pgettext("alalay box", "Póker (four)"),
        "grande_1": pgettext("alalay box", "Grande"),
        "grande_2": pgettext("alalay box", "Grande"),
    }


def _descriptions() -> dict[str, str]:
    return {
        "dudo": _(
            "Dudo as played in Chile: aces (ones) are wild, dudo or calza; a player left with one "
            "die plays a palifico round."
        ),
        "cacho-chileno": _(
            "Cacho chileno: aces are wild, opening on aces is allowed, paso; a player left with one "
            "die plays an obligado round (dice unseen)."
        ),
        "cacho-online": _(
            "Cacho as played online: calza costs two dice, salpicón, the starter chooses the "
            "direction; one die left means a blind round."
        ),
        "liars-dice": _("Liar's dice: no wild aces, no calza; only dudo."),
        "alalay": _(
            "Cacho Alalay: up to three throws a turn, fill the eleven boxes of the scoresheet; "
            "the dormida wins at once."
        ),
    }


def _options() -> dict[str, tuple[str, str]]:
    """Option name -> (title, help)."""
    return {
        "raise_rule": (
            _("Raise rule"),
            _("standard: a raise may change the face freely; strict: each raise must raise the quantity."),
        ),
        "calza_only_if_lost_dice": (
            _("Calza only after losing a die"),
            _("Only a player who has lost at least one die may call calza."),
        ),
        "calza_out_of_turn": (
            _("Calza out of turn"),
            _("Calza may be called by anyone, not only the player on turn."),
        ),
        "palifico_wild_pacos": (
            _("Wild aces in palifico"),
            _("In a palifico round aces stay wild."),
        ),
        "loser_chooses_direction": (
            _("The loser chooses the direction"),
            _("Whoever starts a round after losing chooses the direction of play."),
        ),
        "palifico_once_per_player": (
            _("One palifico per player"),
            _("Each player gets at most one palifico round."),
        ),
        "no_palifico_or_calza_with_two_players": (
            _("No palifico or calza with two players"),
            _("With two players left there is no palifico and no calza."),
        ),
        "no_calza_in_palifico": (
            _("No calza in palifico"),
            _("No calza during a palifico round."),
        ),
        "palifico_one_die_players_may_change_face": (
            _("One-die players may change the face in palifico"),
            _("In palifico, players who hold one die may change the face."),
        ),
        "obligado_first_round_only": (
            _("Obligado only the first time"),
            _("The obligado (dice unseen) applies only in the first round."),
        ),
        "aces_need_natural": (
            _("Aces need a natural"),
            _("A bid on aces needs a natural ace among the player's dice."),
        ),
        "opening_aces_free_conversion": (
            _("Free conversion after opening on aces"),
            _("Right after an opening on aces the conversion is free."),
        ),
        "paso_aces_wild": (
            _("Wild aces in a paso"),
            _("A paso hand counts aces as wild."),
        ),
        "calzo_after_paso": (
            _("Calza after a paso"),
            _("Calza is allowed right after a paso."),
        ),
        "bidding_rule": (
            _("Bidding rule"),
            _(
                "reset-face: a higher face may keep the quantity; reset-quantity: a higher quantity "
                "may take any face; strict: both must not go down."
            ),
        ),
        "dormida_on_full_reroll": (
            _("Dormida on a full re-roll"),
            _("Five of a kind from re-rolling all five dice is a dormida (an instant win)."),
        ),
        "turn_exempt_if_made_hand": (
            _("No turning with a made hand"),
            _("Turning a die is optional when the second throw shows a straight, full, póker or grande."),
        ),
    }


def _value_names() -> dict[str, str]:
    """Names of the enumerated option values."""
    return {
        "standard": _("standard"),
        "strict": _("strict"),
        "reset-face": _("reset the face"),
        "reset-quantity": _("reset the quantity"),
    }


def _option_specs(ruleset: str) -> list[tuple[str, tuple[object, ...], object]]:
    """(name, allowed values, default) of each option of a ruleset, from the engine."""
    return [(spec.name, spec.values, spec.default) for spec in matches.option_specs(ruleset)]


def rulesets() -> list[dict[str, Any]]:
    """Every ruleset with its game and options, in the active language."""
    # in the order an organiser meets them: the engine's, game by game
    ordered = [r for game in matches.rulesets().values() for r in game]
    names, descriptions, texts, values = ruleset_names(), _descriptions(), _options(), _value_names()
    result = []
    for ruleset in ordered:
        options = []
        for name, allowed, default in _option_specs(ruleset):
            title, help_text = texts.get(name, (name.replace("_", " "), ""))
            options.append(
                {
                    "name": name,
                    "label": title,
                    "type": "boolean" if all(isinstance(v, bool) for v in allowed) else "choice",
                    "values": list(allowed),
                    "value_labels": {
                        str(v): values[v] for v in allowed if isinstance(v, str) and v in values
                    },
                    "default": default,
                    "help": help_text,
                }
            )
        result.append(
            {
                "ruleset": ruleset,
                "game": matches.game_of(ruleset),
                "name": names.get(ruleset, ruleset),
                "description": descriptions.get(ruleset, ""),
                "options": options,
                "main_format": usual_stages(matches.game_of(ruleset))["main"],
                "playoff_format": usual_stages(matches.game_of(ruleset))["playoffs"],
                "time_policies": time_policies(ruleset),
                # Whether its tournaments take pairs and teams (docs/tournaments.md).
                "team_seats": matches.team_seats(ruleset),
            }
        )
    return result


def _time_policy_texts() -> dict[str, tuple[str, str]]:
    return {
        "dice-left": (
            _("Dice left"),
            _("Once the round under way ends, the table ends: most dice first; equal dice share the place."),
        ),
        "two-more-rounds": (
            _("Two more rounds"),
            _("Up to two more rounds are played after the call, then the table ends by dice left."),
        ),
        "sudden-death": (
            _("Sudden death"),
            _("The players level for first play on alone, a round at a time, until one leads on dice."),
        ),
        "sheet-as-it-stands": (
            _("Sheet as it stands"),
            _("Once the turn under way ends, every open box scores 0 and the totals rank the table."),
        ),
        "finish-round-of-turns": (
            _("Finish the round of turns"),
            _("Every player gets the same number of turns first; then open boxes score 0."),
        ),
    }


def time_policy_names() -> dict[str, str]:
    """Every time policy's title, in the active language (the pages name the one in play)."""
    return {policy: texts[0] for policy, texts in _time_policy_texts().items()}


def time_policies(ruleset: str) -> list[dict[str, Any]]:
    """How a table still playing at time may be decided in this ruleset (docs/rules.md
    §9.1), the default first, with its title and plain-language help."""
    texts = _time_policy_texts()
    return [
        {
            "value": policy,
            "label": texts.get(policy, (policy, ""))[0],
            "help": texts.get(policy, (policy, ""))[1],
            "default": index == 0,
        }
        for index, policy in enumerate(matches.time_policies(ruleset))
    ]


def formats() -> list[dict[str, Any]]:
    """The stage formats: name, help, the games they suit, their parameters with defaults."""

    def param(name: str, label: str, default: int, low: int, high: int) -> dict[str, Any]:
        return {"name": name, "type": "integer", "label": label, "default": default, "min": low, "max": high}

    # The bounds the competition core enforces (`tables.SMALLEST_TABLE`..`LARGEST_TABLE`: 2–6).
    table_size = param("table_size", _("Players per table"), 6, tables.SMALLEST_TABLE, tables.LARGEST_TABLE)
    every_game = list(matches.rulesets())  # the engine's games, each with its rulesets
    # brackets and table elimination rank by who goes out; an Alalay event by the totals
    elimination = [game for game in every_game if competed_by(game) == ELIMINATION]
    scores = [game for game in every_game if competed_by(game) == SCORES]
    return [
        {
            "format": "swiss",
            "name": _("Swiss"),
            "help": _("Swiss: several rounds, players with similar scores meet."),
            "games": every_game,
            "params": [
                param("rounds", _("Rounds"), 3, 1, 50),
                table_size,
                # the smallest table the pairing may make when the field does not split evenly
                param(
                    "min_size", _("Fewest players at a table"), 2, tables.SMALLEST_TABLE, tables.LARGEST_TABLE
                ),
            ],
        },
        {
            "format": "round_robin",
            "name": _("Round robin"),
            "help": _("Round robin: everyone plays everyone in their group."),
            "games": every_game,
            "params": [param("groups", _("Groups"), 1, 1, 64), {**table_size, "default": 2}],
        },
        {
            "format": "table_elimination",
            "name": _("Table elimination"),
            "help": _("Table elimination: the best of each table go on."),
            "games": elimination,
            "params": [table_size, param("advance_per_table", _("Go on from each table"), 3, 1, 5)],
        },
        {
            "format": "single_elimination",
            "name": _("Single elimination"),
            "help": _("Single elimination bracket."),
            "games": elimination,
            "params": [
                {
                    "name": "third_place",
                    "type": "boolean",
                    "label": _("Match for third place"),
                    "default": False,
                    "help": _(
                        "The semi-final losers play for third place (from four entries up); "
                        "without it they share third place."
                    ),
                }
            ],
        },
        {
            "format": "double_elimination",
            "name": _("Double elimination"),
            "help": _("Double elimination bracket (a second chance)."),
            "games": elimination,
            "params": [],
        },
        {
            "format": "final_table",
            "name": _("Final table"),
            "help": _("One final table."),
            "games": every_game,
            "params": [],
        },
        {
            "format": "alalay_event",
            "name": _("Alalay event"),
            "help": _("Alalay event: qualifying rounds, then a final table."),
            "games": scores,
            "params": [
                {**table_size, "default": 4},
                param("qualifying_rounds", _("Qualifying rounds"), 3, 1, 20),
                param("finalists", _("Finalists"), 6, 2, 6),
            ],
        },
    ]


def standings_options() -> dict[str, Any]:
    """How results become points (the scales, `share` by default) and what a bye is worth:
    the `standings` of a new tournament (`{"scale", "fixed", "bye_points"}`)."""
    from tournaments.competition import standings

    return {
        "default_scale": standings.SHARE,
        "scales": [
            {
                "scale": standings.SHARE,
                "name": _("A share of the table"),
                "help": _(
                    "1 point for a table win, 0 for last place, evenly spaced between (at a table "
                    "of 4: 1, ⅔, ⅓, 0): a win is worth the same at every table size."
                ),
                "available": True,
            },
            {
                "scale": standings.TABLE_SIZE,
                "name": _("By table size"),
                "help": _(
                    "A point for every player finished ahead of: at a table of n the winner gets "
                    "n−1, last place 0, so a win at a bigger table is worth more."
                ),
                "available": True,
            },
            {
                "scale": standings.FIXED,
                "name": _("Fixed points by place"),
                "help": _(
                    "The points you list for first, second, third… place; places beyond the list get 0."
                ),
                "available": True,
            },
            {
                "scale": standings.REPORTED,
                "name": _("As reported"),
                "help": _(
                    "The points each result reports. The tables report placements only, so this "
                    "scale cannot be chosen here yet."
                ),
                # No result carries points today (`matches.SeatResult`): a tournament on this
                # scale would refuse its first result.
                "available": False,
            },
        ],
        "fixed": {
            "label": _("Points by place, first to last"),
            "help": _("Numbers separated by commas, for example 10, 7, 5, 3."),
        },
        "bye_points": {
            "label": _("Points for a bye"),
            "help": _(
                "What a bye is worth in a Swiss round or an Alalay qualifying round; empty: a win "
                "(1 point on the default scale). A round robin's sit-out and a bracket bye earn "
                "nothing."
            ),
            "default": None,
        },
    }


def criteria_names() -> dict[str, str]:
    """Standings criteria (points and tiebreaks) by code."""
    from tournaments.competition import standings

    names = {
        standings.POINTS: _("points"),
        standings.WINS: _("table wins"),
        standings.ELIMINATIONS: _("eliminations made"),
        standings.DICE_LEFT: _("dice left"),
        standings.HEAD_TO_HEAD: _("head-to-head"),
        standings.BUCHHOLZ: _("opponents' points (Buchholz)"),
        standings.ALALAY_TOTAL: _("total points"),
        standings.INSTANT_WINS: _("instant wins"),
        standings.BEST_CARD: _("best single card"),
    }
    return {code: names.get(code, label) for code, label in standings.LABELS.items()}
