"""Schemathesis over the OpenAPI schema (`/api/schema/`): every operation, with data that
fits the schema and data that does not, anonymously and as a logged-in user. No request
may end in a server error, and data that breaks the schema must be refused (4xx). The
examples are bounded so that the run takes seconds, not minutes."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis.errors import Unsatisfiable

EXAMPLES = 4  # per operation and generation mode


def can_break_its_schema(definition: dict[str, Any]) -> bool:
    """Whether some request of an operation breaks its schema. One with no body, no
    parameter outside its path, and only plain strings in its path has none: a path segment
    is a string whatever it holds. For each such operation Hypothesis would look for a
    breaking request for about a second before giving up (Unsatisfiable): nine tenths of
    this test's time when it did."""
    if "requestBody" in definition:
        return True
    for parameter in definition.get("parameters") or []:
        shape = {
            k: v for k, v in (parameter.get("schema") or {}).items() if k not in ("description", "title")
        }
        if parameter.get("in") != "path" or shape != {"type": "string"}:
            return True
    return False


@pytest.fixture
def token(committed_db: None) -> str:
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from tournaments.clubs.members import create_club

    user = get_user_model().objects.create_user("fuzzer", password="a-long-pass-123")
    create_club("Fuzz club", "fuzz", user)
    return str(Token.objects.create(user=user).key)


@pytest.mark.first  # among the longest tests: begun last, the run's other workers ended first and waited
def test_the_api_never_fails_and_refuses_what_breaks_its_schema(token: str, settings: Any) -> None:
    # Imported here, not at the module's top: every pytest-xdist worker collects this
    # module, one runs the test, and Schemathesis takes about half a second to import.
    import schemathesis
    from schemathesis import GenerationMode
    from schemathesis.checks import not_a_server_error
    from schemathesis.specs.openapi.checks import negative_data_rejection

    from project.wsgi import application

    logging.getLogger("django.request").setLevel(logging.ERROR)  # hundreds of expected 4xx lines

    settings.CACHO_RATES = {}  # thousands of requests from one client: no limit in this test
    schema = schemathesis.openapi.from_wsgi("/api/schema/", application)
    callers = ({}, {"Authorization": f"Token {token}"})
    failures: list[str] = []
    cases = 0
    for found in schema.get_all_operations():
        operation = found.ok()
        breakable = can_break_its_schema(operation.definition.raw)
        for mode in GenerationMode:
            if mode is GenerationMode.NEGATIVE and not breakable:
                continue

            @given(operation.as_strategy(generation_mode=mode))
            @hypothesis_settings(
                max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck)
            )
            def run(case: Any) -> None:
                nonlocal cases
                cases += 1
                response = case.call(headers=callers[cases % 2])  # anonymous and logged in, in turn
                try:
                    case.validate_response(response, checks=[not_a_server_error, negative_data_rejection])
                except Exception as failure:  # every operation runs; all failures are listed
                    failures.append(f"{case.method} {case.formatted_path}: {failure}"[:600])

            try:
                run()
            except Unsatisfiable:  # no breaking request found, where one exists
                failures.append(f"{operation.label} ({mode.value}): no request generated")
            except Exception as failure:
                failures.append(f"{operation.label} ({mode.value}): {failure}"[:600])
    print(f"schemathesis: {cases} cases")
    logging.getLogger("django.request").setLevel(logging.NOTSET)
    assert cases > 150
    assert not failures, "\n\n".join(failures[:15])
