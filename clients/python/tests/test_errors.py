"""Errors as the SDK raises them: the API's codes (INVALID_API_KEY, NOT_FOUND, VALIDATION_FAILED
with details, INSUFFICIENT_CREDITS, UNAUTHORIZED) with status, message and request id;
PlatenConnectionError for a refused port, a bad URL and a timeout; and what every request sends.
"""
from __future__ import annotations

import json
import time
import unittest
from typing import Dict, Tuple

from platen import Platen, PlatenAdmin, PlatenConnectionError, PlatenError, __version__

from . import service
from .support import LocalServer, admin, new_workspace, simple_document
from .service import free_port


def setUpModule() -> None:
    service.acquire()


def tearDownModule() -> None:
    service.release()


class ApiErrorsTest(unittest.TestCase):
    def test_an_unknown_api_key(self) -> None:
        platen = Platen(base_url=service.current().base_url, api_key="plt_not_a_real_key")
        with self.assertRaises(PlatenError) as caught:
            platen.templates.list()
        error = caught.exception
        self.assertEqual((error.code, error.status), ("INVALID_API_KEY", 403))
        self.assertTrue(error.request_id)
        self.assertEqual(str(error), f"INVALID_API_KEY (403): {error.message}")
        self.assertNotIn("\n", str(error))

    def test_not_found_and_validation_details(self) -> None:
        platen = new_workspace(credits=5).platen
        with self.assertRaises(PlatenError) as missing:
            platen.templates.get("tpl_doesnotexist")
        self.assertEqual((missing.exception.code, missing.exception.status), ("NOT_FOUND", 404))

        template = platen.templates.create(name="card", document=simple_document())
        with self.assertRaises(PlatenError) as invalid:
            platen.render(template["id"], modifications={"card": "not a colour"})
        error = invalid.exception
        self.assertEqual((error.code, error.status), ("VALIDATION_FAILED", 400))
        self.assertIsInstance(error.details, list)
        self.assertIn("modifications.card", [issue["path"] for issue in error.details])
        with self.assertRaises(PlatenError) as bad_document:
            platen.templates.create(name="bad", document={"schemaVersion": 1, "pages": "none"})
        self.assertEqual(bad_document.exception.code, "VALIDATION_FAILED")
        self.assertTrue(bad_document.exception.details)

    def test_insufficient_credits_charges_nothing(self) -> None:
        workspace = new_workspace(credits=0)
        template = workspace.platen.templates.create(name="card", document=simple_document())
        with self.assertRaises(PlatenError) as caught:
            workspace.platen.render(template["id"], format="png")
        self.assertEqual((caught.exception.code, caught.exception.status), ("INSUFFICIENT_CREDITS", 402))
        with self.assertRaises(PlatenError) as batch:
            workspace.platen.batches.create(template["id"], rows=[{"name": "A"}])
        self.assertEqual(batch.exception.code, "INSUFFICIENT_CREDITS")
        self.assertEqual(admin().workspaces.get(workspace.id)["creditBalance"], 0)
        charged = [entry for entry in admin().ledger.list(workspace.id) if entry["delta"] < 0]
        self.assertEqual(charged, [])

    def test_the_operator_api_without_the_token(self) -> None:
        wrong = PlatenAdmin(base_url=service.current().base_url, admin_token="not-the-operator-token")
        with self.assertRaises(PlatenError) as caught:
            wrong.workspaces.list()
        self.assertEqual((caught.exception.code, caught.exception.status), ("UNAUTHORIZED", 401))

    def test_an_answer_that_is_not_the_api_error_keeps_its_status(self) -> None:
        proxy = LocalServer(lambda method, path, headers, body: (502, b"<html>Bad gateway</html>"))
        try:
            with self.assertRaises(PlatenError) as caught:
                Platen(base_url=proxy.base_url, api_key="plt_x").usage()
        finally:
            proxy.close()
        self.assertEqual((caught.exception.code, caught.exception.status), ("HTTP_502", 502))

    def test_a_successful_answer_that_is_not_json(self) -> None:
        portal = LocalServer(lambda method, path, headers, body: (200, b"<html>Sign in to the Wi-Fi</html>"))
        try:
            with self.assertRaises(PlatenError) as caught:
                Platen(base_url=portal.base_url, api_key="plt_x").templates.list()
        finally:
            portal.close()
        self.assertEqual((caught.exception.code, caught.exception.status), ("HTTP_200", 200))


class ConnectionErrorsTest(unittest.TestCase):
    def test_a_refused_port(self) -> None:
        base_url = f"http://127.0.0.1:{free_port()}"
        with self.assertRaises(PlatenConnectionError) as caught:
            Platen(base_url=base_url, api_key="plt_x").templates.list()
        self.assertIn(base_url, str(caught.exception))
        self.assertNotIsInstance(caught.exception, PlatenError)

    def test_a_bad_base_url(self) -> None:
        for bad in ("not a url", "ftp://example.com", "http://"):
            with self.subTest(base_url=bad), self.assertRaises(PlatenConnectionError):
                Platen(base_url=bad, api_key="plt_x").templates.list()

    def test_a_timeout(self) -> None:
        def slow(method: str, path: str, headers: Dict[str, str], body: bytes) -> Tuple[int, bytes]:
            time.sleep(1.5)
            return 200, b"{}"

        server = LocalServer(slow)
        try:
            started = time.monotonic()
            with self.assertRaises(PlatenConnectionError) as caught:
                Platen(base_url=server.base_url, api_key="plt_x", timeout=0.3).usage()
            self.assertLess(time.monotonic() - started, 1.4)
        finally:
            server.close()
        self.assertIn("timed out", str(caught.exception))


class SentHeadersTest(unittest.TestCase):
    def test_credential_user_agent_and_bodies(self) -> None:
        answers = {"/v1/assets": (201, b'{"id": "ast_1"}'), "/v1/templates/tpl_1/batches/csv": (201, b"{}")}
        server = LocalServer(lambda method, path, headers, body: answers.get(path.split("?")[0], (200, b"{}")))
        try:
            platen = Platen(base_url=server.base_url + "/", api_key="plt_secret")
            platen.templates.create(name="Zoë", document={"a": 1})
            platen.assets.upload(b"\x00\x01raw", "image/png", family="My Font")
            platen.batches.create_from_csv("tpl_1", "name\nA\n", format="jpeg", scale=2, all_pages=True)
            platen.templates.save("tpl/1", {"b": 2}, if_match=4)
        finally:
            server.close()
        (create, upload, csv, save) = server.requests
        for _, _, headers, _ in server.requests:
            self.assertEqual(headers["authorization"], "Bearer plt_secret")
            self.assertEqual(headers["user-agent"], f"platen-python/{__version__}")
        self.assertEqual((create[0], create[1]), ("POST", "/v1/templates"))
        self.assertEqual(create[2]["content-type"], "application/json")
        self.assertEqual(json.loads(create[3]), {"name": "Zoë", "document": {"a": 1}})
        self.assertEqual(upload[1], "/v1/assets?family=My%20Font")
        self.assertEqual((upload[2]["content-type"], upload[3]), ("image/png", b"\x00\x01raw"))
        self.assertEqual(csv[1], "/v1/templates/tpl_1/batches/csv?format=jpeg&scale=2&allPages=true")
        self.assertTrue(csv[2]["content-type"].startswith("text/csv"))
        self.assertEqual(csv[3], b"name\nA\n")
        self.assertEqual((save[0], save[1], save[2]["if-match"]), ("PUT", "/v1/templates/tpl%2F1", '"4"'))


if __name__ == "__main__":
    unittest.main()
