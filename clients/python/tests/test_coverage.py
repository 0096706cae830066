"""Every operation of the served OpenAPI document is covered: each operationId maps to a callable of
a real client (platen/_operations.py, `admin.` paths on PlatenAdmin) or is excluded with a reason,
and the tables name no operation the document no longer has.
"""
from __future__ import annotations

import json
import unittest
import urllib.request
from typing import Any, Dict, Set

from platen import Platen, PlatenAdmin
from platen._operations import EXCLUDED, OPERATIONS

from . import service

METHODS = ("get", "put", "post", "patch", "delete", "head", "options")


def setUpModule() -> None:
    service.acquire()


def tearDownModule() -> None:
    service.release()


def resolve(root: Any, dotted: str) -> Any:
    target = root
    for name in dotted.split("."):
        target = getattr(target, name)
    return target


class OperationCoverageTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        running = service.current()
        with urllib.request.urlopen(f"{running.base_url}/openapi.json", timeout=30) as answer:
            document: Dict[str, Any] = json.load(answer)
        cls.operation_ids: Set[str] = {
            operation["operationId"]
            for item in document["paths"].values()
            for method, operation in item.items()
            if method in METHODS
        }
        cls.platen = Platen(base_url=running.base_url, api_key="plt_unused")
        cls.admin = PlatenAdmin(base_url=running.base_url, admin_token=running.admin_token)

    def test_the_document_has_the_operations_we_know(self) -> None:
        self.assertGreaterEqual(len(self.operation_ids), 60)
        self.assertIn("renderTemplate", self.operation_ids)

    def test_every_operation_is_a_client_method_or_excluded_with_a_reason(self) -> None:
        uncovered = sorted(self.operation_ids - set(OPERATIONS) - set(EXCLUDED))
        self.assertEqual(uncovered, [], "operations with no client method and no listed exclusion")
        self.assertEqual(sorted(set(OPERATIONS) & set(EXCLUDED)), [], "both mapped and excluded")
        for operation_id, reason in EXCLUDED.items():
            with self.subTest(operation_id):
                self.assertGreater(len(reason.strip()), 10)

    def test_no_table_entry_names_a_missing_operation(self) -> None:
        stale = sorted((set(OPERATIONS) | set(EXCLUDED)) - self.operation_ids)
        self.assertEqual(stale, [], "entries for operations the document no longer has")

    def test_every_mapped_path_resolves_to_a_callable_of_a_real_client(self) -> None:
        for operation_id, dotted in OPERATIONS.items():
            with self.subTest(operation_id, path=dotted):
                if dotted.startswith("admin."):
                    target = resolve(self.admin, dotted[len("admin."):])
                else:
                    target = resolve(self.platen, dotted)
                self.assertTrue(callable(target), f"{dotted} is not callable")
                self.assertFalse(dotted.split(".")[-1].startswith("_"))


if __name__ == "__main__":
    unittest.main()
