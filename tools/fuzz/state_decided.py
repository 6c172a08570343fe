"""
Which refusals of a schema-valid request the state or the environment decided:
the decision of the fuzzer's `positive_data_acceptance` replacement (hooks.py),
kept free of schemathesis so that a plain `python3` can test it
(test_state_decided.py, run by test/unit/fuzz-state-decided.test.ts).

The policy is the document's own: the `x-offerops-state-decided` extension of
its Error schema, written from schemas/openapi/common.ts by `npm run openapi`.
"""

EXTENSION = "x-offerops-state-decided"


def policy_of(document):
    """The extension of the document's Error schema; a KeyError when the document carries none."""
    return document["components"]["schemas"]["Error"][EXTENSION]


def state_decided(policy, status, body):
    """
    True when the refusal `body` (the contract's error shape: code, message,
    request_id, details) with HTTP `status` is one the state or the environment
    decided: a listed code with its own status, or a 400 `validation_failed`
    whose details are all of listed rules (at least one detail). Anything else,
    a plain shape rule among the details included, is False.
    """
    if not isinstance(body, dict):
        return False
    code = body.get("code")
    if not isinstance(code, str):
        return False
    if code in policy["codes"]:
        return policy["codes"][code] == status
    if code != "validation_failed" or status != 400:
        return False
    details = body.get("details")
    if not isinstance(details, list) or not details:
        return False
    rules = policy["validation_failed_rules"]
    return all(isinstance(d, dict) and isinstance(d.get("rule"), str) and d["rule"] in rules for d in details)
