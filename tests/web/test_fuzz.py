"""Schemathesis against the server's own `/openapi.json`: every operation, bounded
examples (valid and invalid by the schema). No answer may be a 5xx, and every
answer must be one the schema lists, in the shape it gives."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from pyramids.web.app import create_app
from tests.web.conftest import ServerThread

schemathesis = pytest.importorskip("schemathesis")
from schemathesis.checks import (  # noqa: E402
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance]


# The schema the server publishes at /openapi.json (made without starting it).
schema = schemathesis.openapi.from_dict(create_app("sqlite:///:memory:").openapi())


@schema.parametrize()
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
def test_the_api_answers_only_what_its_schema_says(case: Any, server: ServerThread) -> None:
    case.call_and_validate(base_url=server.base, checks=CHECKS)
