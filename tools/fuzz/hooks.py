"""
schemathesis hooks of `npm run fuzz` (tools/fuzz/run.ts sets SCHEMATHESIS_HOOKS
to this file and turns the built-in `positive_data_acceptance` off).

`state_aware_positive_data_acceptance` is the built-in check, run as it is,
except that a refusal the state or the environment decided passes (an id that
does not exist or was deleted earlier in a stateful scenario, a move the
resource's state forbids, a URL that must resolve on a machine without DNS, a
rule across fields): the decision is state_decided.py's, on the policy the
served document carries.
"""

import os
import sys

import schemathesis
from schemathesis.openapi.checks import RejectedPositiveData
from schemathesis.specs.openapi.checks import positive_data_acceptance

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from state_decided import policy_of, state_decided  # noqa: E402


def _body(response):
    try:
        return response.json()
    except ValueError:
        return None


@schemathesis.check
def state_aware_positive_data_acceptance(ctx, response, case):
    """positive_data_acceptance (ST202), except for the refusals the document marks as decided by the state."""
    try:
        return positive_data_acceptance(ctx, response, case)
    except RejectedPositiveData:
        if state_decided(policy_of(case.operation.schema.raw_schema), response.status_code, _body(response)):
            return None
        raise
