"""The four bidding rulesets and their options, as one immutable `Rules` value.

Everything that varies between `dudo`, `cacho-chileno`, `cacho-online` and
`liars-dice` is a field here, so the rest of the engine asks questions of
`Rules` instead of comparing ruleset names.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from cacho.engine.errors import RuleError

RulesetName = Literal["dudo", "cacho-chileno", "cacho-online", "liars-dice"]
Mode = Literal["normal", "palifico", "obligado", "blind"]
ToOnes = Literal["ceil_half", "floor_half_plus_one"]

RULESETS: tuple[RulesetName, ...] = ("dudo", "cacho-chileno", "cacho-online", "liars-dice")
MAX_DICE = 5

# Option name -> (allowed values, default). A tuple of strings is an enumeration.
OptionSpec = tuple[tuple[object, ...], object]
_BOOL: tuple[object, ...] = (False, True)
OPTIONS: dict[RulesetName, dict[str, OptionSpec]] = {
    "dudo": {
        "raise_rule": (("standard", "strict"), "standard"),
        "calza_only_if_lost_dice": (_BOOL, False),
        "calza_out_of_turn": (_BOOL, False),
        "palifico_wild_pacos": (_BOOL, False),
        "loser_chooses_direction": (_BOOL, False),
        "palifico_once_per_player": (_BOOL, False),
        "no_palifico_or_calza_with_two_players": (_BOOL, False),
        "no_calza_in_palifico": (_BOOL, False),
        "palifico_one_die_players_may_change_face": (_BOOL, False),
    },
    "cacho-chileno": {
        "obligado_first_round_only": (_BOOL, False),
        "aces_need_natural": (_BOOL, False),
        "opening_aces_free_conversion": (_BOOL, False),
        "paso_aces_wild": (_BOOL, False),
        "calzo_after_paso": (_BOOL, False),
    },
    "cacho-online": {},
    "liars-dice": {
        "bidding_rule": (("reset-face", "reset-quantity", "strict"), "reset-face"),
    },
}


@dataclass(frozen=True, slots=True)
class Rules:
    """One ruleset with its options resolved to concrete values."""

    ruleset: RulesetName
    options: tuple[tuple[str, object], ...]
    # shape of the game
    max_players: int | None
    ones_wild: bool
    to_ones: ToOnes
    one_die_mode: Mode
    has_calza: bool
    has_paso: bool
    has_salpicon: bool
    calza_penalty: int
    calza_at_five: bool
    calza_threshold: bool
    opening_on_ones: bool
    starter_chooses_direction: bool
    non_one_raise: Literal["standard", "strict", "reset-quantity"]
    # the seed's own turn length, which no match may change (cacho-online: 30 s, §9)
    fixed_turn_seconds: int | None = None
    # dudo options
    calza_out_of_turn: bool = False
    palifico_wild_pacos: bool = False
    palifico_once_per_player: bool = False
    no_palifico_or_calza_with_two_players: bool = False
    no_calza_in_palifico: bool = False
    palifico_one_die_players_may_change_face: bool = False
    # cacho-chileno options
    obligado_first_round_only: bool = False
    aces_need_natural: bool = False
    opening_aces_free_conversion: bool = False
    paso_aces_wild: bool = False
    calzo_after_paso: bool = False

    def option_dict(self) -> dict[str, object]:
        return dict(self.options)

    def calzo_threshold(self, initial_players: int) -> int:
        """T = floor(5·N0/2) + 1: below it, calzo is off for good (cacho-online)."""
        return (MAX_DICE * initial_players) // 2 + 1

    def palifico_barred(self, counts: tuple[int, ...] | list[int]) -> bool:
        """Perudo's two-player rule: no palifico round while exactly two players hold dice."""
        return self.no_palifico_or_calza_with_two_players and sum(1 for held in counts if held > 0) == 2

    def has_mode(self, mode: str) -> bool:
        return mode == "normal" or mode == self.one_die_mode


def normalise_options(ruleset: str, options: Mapping[str, object]) -> dict[str, object]:
    """Every option of the ruleset with its value; unknown names or values are errors."""
    if ruleset not in OPTIONS:
        raise RuleError("unknown-ruleset", f"unknown ruleset {ruleset!r}")
    specs = OPTIONS[ruleset]
    values: dict[str, object] = {}
    for name, value in options.items():
        if name not in specs:
            raise RuleError("unknown-option", f"{ruleset} has no option {name!r}")
        for choice in specs[name][0]:
            if value is choice or (type(value) is type(choice) and value == choice):
                break
        else:
            raise RuleError("invalid-option-value", f"option {name!r} cannot be {value!r}")
        values[name] = value
    for name, (_, default) in specs.items():
        values.setdefault(name, default)
    return values


def make_rules(ruleset: str, options: Mapping[str, object] | None = None) -> Rules:
    """The `Rules` of a ruleset; raises RuleError for an unknown ruleset or option."""
    values = normalise_options(ruleset, options or {})
    ordered = tuple(sorted(values.items()))
    if ruleset == "dudo":
        return Rules(
            ruleset="dudo",
            options=ordered,
            max_players=6,
            ones_wild=True,
            to_ones="ceil_half",
            one_die_mode="palifico",
            has_calza=True,
            has_paso=False,
            has_salpicon=False,
            calza_penalty=1,
            calza_at_five=not values["calza_only_if_lost_dice"],
            calza_threshold=False,
            opening_on_ones=False,
            starter_chooses_direction=bool(values["loser_chooses_direction"]),
            non_one_raise="strict" if values["raise_rule"] == "strict" else "standard",
            calza_out_of_turn=bool(values["calza_out_of_turn"]),
            palifico_wild_pacos=bool(values["palifico_wild_pacos"]),
            palifico_once_per_player=bool(values["palifico_once_per_player"]),
            no_palifico_or_calza_with_two_players=bool(values["no_palifico_or_calza_with_two_players"]),
            no_calza_in_palifico=bool(values["no_calza_in_palifico"]),
            palifico_one_die_players_may_change_face=bool(values["palifico_one_die_players_may_change_face"]),
        )
    if ruleset == "cacho-chileno":
        return Rules(
            ruleset="cacho-chileno",
            options=ordered,
            max_players=None,
            ones_wild=True,
            to_ones="ceil_half",
            one_die_mode="obligado",
            has_calza=True,
            has_paso=True,
            has_salpicon=False,
            calza_penalty=1,
            calza_at_five=True,
            calza_threshold=False,
            opening_on_ones=True,
            starter_chooses_direction=False,
            non_one_raise="standard",
            obligado_first_round_only=bool(values["obligado_first_round_only"]),
            aces_need_natural=bool(values["aces_need_natural"]),
            opening_aces_free_conversion=bool(values["opening_aces_free_conversion"]),
            paso_aces_wild=bool(values["paso_aces_wild"]),
            calzo_after_paso=bool(values["calzo_after_paso"]),
        )
    if ruleset == "cacho-online":
        return Rules(
            ruleset="cacho-online",
            options=ordered,
            max_players=6,
            ones_wild=True,
            to_ones="floor_half_plus_one",
            one_die_mode="blind",
            has_calza=True,
            has_paso=False,
            has_salpicon=True,
            calza_penalty=2,
            calza_at_five=False,
            calza_threshold=True,
            opening_on_ones=True,
            starter_chooses_direction=True,
            non_one_raise="standard",
            fixed_turn_seconds=30,
        )
    bidding_rule = values["bidding_rule"]
    return Rules(
        ruleset="liars-dice",
        options=ordered,
        max_players=None,
        ones_wild=False,
        to_ones="ceil_half",
        one_die_mode="normal",
        has_calza=False,
        has_paso=False,
        has_salpicon=False,
        calza_penalty=1,
        calza_at_five=False,
        calza_threshold=False,
        opening_on_ones=True,
        starter_chooses_direction=False,
        non_one_raise=(
            "standard"
            if bidding_rule == "reset-face"
            else "reset-quantity"
            if bidding_rule == "reset-quantity"
            else "strict"
        ),
    )
