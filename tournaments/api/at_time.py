"""The API of rounds at time (docs/tournaments.md, "Rounds at time"): the director calls
time on a round. A thin view over `tournaments.services.at_time`; errors as everywhere in
this API (`{"code", "message"}`)."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api.base import ERRORS, SignedInView
from tournaments.services import at_time
from tournaments.services.clock import clock_view


class CallTimeView(SignedInView):
    @extend_schema(
        operation_id="round_call_time",
        request=None,
        responses={200: OpenApiTypes.OBJECT, **ERRORS},
        description=(
            "Call time on the round (organisers, referees): every table still playing gets the "
            "tournament's time policy as an event of its match and ends as the policy says. "
            "Answers the round's `time_called_at`, `time_policy` and clock. Refused with nothing "
            "stored: `time-already-called` and `round-finished` (409), `forbidden` (403)."
        ),
    )
    def post(self, request: Request, round_id: str) -> Response:
        rnd = at_time.call_time(round_id, request.user)
        return Response(
            {
                "round_id": rnd.pk,
                "round": rnd.number,
                **at_time.round_view(rnd),
                "time_policy": at_time.policy_of(rnd.tournament),
                "clock": clock_view(rnd),
            }
        )
