"""
The fuzzer's decision (state_decided.py) on the policy of the committed
document (schemas/openapi.json). Plain unittest, no schemathesis, no network:
run by test/unit/fuzz-state-decided.test.ts (`python3 tools/fuzz/test_state_decided.py`).
"""

import json
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from state_decided import policy_of, state_decided  # noqa: E402

with open(os.path.join(HERE, "..", "..", "schemas", "openapi.json"), encoding="utf-8") as f:
    POLICY = policy_of(json.load(f))


def refusal(code, *rules):
    body = {"code": code, "message": "refused", "request_id": "req_0a1b2c3d4e5f6a7b"}
    if rules:
        body["details"] = [{"location": "body", "field": "f", "rule": rule, "message": "m"} for rule in rules]
    return body


class StateDecided(unittest.TestCase):
    def test_codes_the_state_decides_pass_with_their_own_status(self):
        for status, code in [
            (400, "unknown_reference"),
            (400, "invalid_transition"),
            (400, "link_unresolvable"),
            (400, "unknown_marketplace"),
            (404, "not_found"),
            (404, "integration_missing"),
            (409, "conflict"),
            (409, "slug_taken"),
            (409, "offer_not_publishable"),
        ]:
            with self.subTest(code=code):
                self.assertTrue(state_decided(POLICY, status, refusal(code, "exists")))

    def test_a_listed_code_under_another_status_fails(self):
        self.assertFalse(state_decided(POLICY, 404, refusal("unknown_reference")))
        self.assertFalse(state_decided(POLICY, 400, refusal("not_found")))

    def test_codes_of_the_request_itself_fail(self):
        for status, code in [
            (400, "invalid_request"),
            (400, "malformed_json"),
            (404, "route_not_found"),
            (415, "unsupported_media_type"),
            (500, "internal_error"),
        ]:
            with self.subTest(code=code):
                self.assertFalse(state_decided(POLICY, status, refusal(code)))

    def test_validation_failed_on_cross_field_and_environment_rules_passes(self):
        for rules in [
            ("destination",),
            ("after_starts_at",),
            ("after_opens", "max_per_day", "timezone"),
            ("dangling_edge", "unreachable", "exists"),
            ("range",),
            ("frequency",),
            ("future",),
        ]:
            with self.subTest(rules=rules):
                self.assertTrue(state_decided(POLICY, 400, refusal("validation_failed", *rules)))

    def test_validation_failed_on_a_shape_rule_fails(self):
        for rule in ["type", "required", "oneOf", "pattern", "enum", "format", "maxLength", "additionalProperties", "unlisted_rule"]:
            with self.subTest(rule=rule):
                self.assertFalse(state_decided(POLICY, 400, refusal("validation_failed", rule)))

    def test_one_shape_rule_among_listed_ones_fails(self):
        self.assertFalse(state_decided(POLICY, 400, refusal("validation_failed", "destination", "required")))

    def test_validation_failed_without_details_or_not_as_400_fails(self):
        self.assertFalse(state_decided(POLICY, 400, refusal("validation_failed")))
        self.assertFalse(state_decided(POLICY, 400, {**refusal("validation_failed"), "details": []}))
        self.assertFalse(state_decided(POLICY, 422, refusal("validation_failed", "destination")))

    def test_bodies_out_of_the_error_shape_fail(self):
        for body in [None, "unknown_reference", [], {}, {"code": 7}, {"error": {"code": "unknown_reference"}}]:
            with self.subTest(body=body):
                self.assertFalse(state_decided(POLICY, 400, body))
        self.assertFalse(state_decided(POLICY, 400, {"code": "validation_failed", "details": [{"field": "url"}]}))
        self.assertFalse(state_decided(POLICY, 400, {"code": "validation_failed", "details": ["destination"]}))


if __name__ == "__main__":
    unittest.main()
