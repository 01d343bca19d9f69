"""The rules' terms of each game, a title and an explanation each: the glossary of the table
and of the replay page."""

from __future__ import annotations

from django.utils.translation import gettext as _


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
