"""The operator client: workspaces, credits and the ledger, API keys (a revoked key stops at once),
embeds with their public info and session minting, URL-signing secrets, users and the audit log;
and the first-start key the service printed.
"""
from __future__ import annotations

import secrets
import unittest

from platen import Platen, PlatenError

from . import service
from .support import ALL_SCOPES, admin


def setUpModule() -> None:
    service.acquire()


def tearDownModule() -> None:
    service.release()


class AdminTest(unittest.TestCase):
    def setUp(self) -> None:
        self.operator = admin()
        self.base_url = service.current().base_url

    def test_the_first_start_key_printed_on_stdout_works(self) -> None:
        key = service.current().bootstrap_key
        self.assertIsNotNone(key)
        self.assertIsInstance(Platen(base_url=self.base_url, api_key=key).templates.list()["items"], list)

    def test_workspaces_credits_and_the_ledger(self) -> None:
        workspace = self.operator.workspaces.create(name="acme", credits=5)
        expected = {"id": workspace["id"], "name": "acme", "creditBalance": 5, "suspended": False}
        self.assertEqual(workspace, expected)
        self.assertIn(workspace["id"], [item["id"] for item in self.operator.workspaces.list()])
        self.assertEqual(self.operator.workspaces.get(workspace["id"]), workspace)
        renamed = self.operator.workspaces.update(workspace["id"], name="acme inc", suspended=True)
        self.assertEqual((renamed["name"], renamed["suspended"]), ("acme inc", True))

        granted = self.operator.credits.adjust(workspace["id"], 10, reason="top-up")
        self.assertEqual(granted, {"creditBalance": 15})
        self.assertEqual(self.operator.credits.adjust(workspace["id"], -3), {"creditBalance": 12})
        with self.assertRaises(PlatenError) as caught:
            self.operator.credits.adjust(workspace["id"], -100)
        self.assertEqual((caught.exception.code, caught.exception.status), ("CONFLICT", 409))
        ledger = self.operator.ledger.list(workspace["id"])
        movements = sorted((entry["delta"], entry["balanceAfter"]) for entry in ledger)
        self.assertEqual(movements, [(-3, 12), (5, 5), (10, 15)])
        self.assertIn("top-up", [entry["reason"] for entry in ledger])

    def test_api_keys_and_revocation(self) -> None:
        workspace = self.operator.workspaces.create(name="keys")
        created = self.operator.api_keys.create(workspace["id"], ["template:read"], name="reader")
        self.assertTrue(created["key"].startswith("plt_"))
        self.assertEqual(created["scopes"], ["template:read"])
        listed = self.operator.api_keys.list(workspace["id"])
        self.assertEqual([(k["id"], k["name"]) for k in listed], [(created["id"], "reader")])
        self.assertNotIn("key", listed[0])

        platen = Platen(base_url=self.base_url, api_key=created["key"])
        self.assertEqual(platen.templates.list()["items"], [])
        with self.assertRaises(PlatenError) as scope:
            platen.templates.create(name="no", width=10, height=10)
        self.assertEqual(scope.exception.code, "INSUFFICIENT_SCOPE")
        self.assertEqual(scope.exception.details, {"requiredScope": "template:write"})

        self.operator.api_keys.revoke(created["id"])
        with self.assertRaises(PlatenError) as revoked:
            platen.templates.list()
        self.assertEqual(revoked.exception.code, "INVALID_API_KEY")
        actions = [(entry["action"], entry["target"]) for entry in self.operator.audit_log.all()]
        self.assertIn(("api_key.created", created["id"]), actions)
        self.assertIn(("api_key.revoked", created["id"]), actions)
        self.assertEqual(len(self.operator.audit_log.list(limit=1)["items"]), 1)

    def test_embeds_their_public_info_and_sessions(self) -> None:
        workspace = self.operator.workspaces.create(name="embeds")
        key = self.operator.api_keys.create(workspace["id"], ALL_SCOPES)["key"]
        embed = self.operator.embeds.create(
            workspace["id"], brand_title="Acme Studio", downloads_enabled=False
        )
        self.assertEqual(
            (embed["brandTitle"], embed["downloadsEnabled"], embed["multiTenant"]), ("Acme Studio", False, True)
        )
        self.assertEqual([item["id"] for item in self.operator.embeds.list(workspace["id"])], [embed["id"]])

        anonymous = Platen(base_url=self.base_url)
        info = anonymous.embeds.info(embed["id"])
        self.assertEqual(
            (info["brandTitle"], info["enabled"], info["downloadsEnabled"]), ("Acme Studio", True, False)
        )
        session = anonymous.embeds.create_session(embed["id"], user_id="user-42")
        self.assertEqual(sorted(session), ["expiresAt", "token"])
        with self.assertRaises(PlatenError) as no_user:
            anonymous.embeds.create_session(embed["id"])
        self.assertEqual(no_user.exception.code, "VALIDATION_FAILED")

        locked = self.operator.embeds.update(embed["id"], mint_requires_api_key=True, downloads_enabled=True)
        self.assertEqual((locked["mintRequiresApiKey"], locked["downloadsEnabled"]), (True, True))
        self.assertEqual(self.operator.embeds.get(embed["id"])["mintRequiresApiKey"], True)
        with self.assertRaises(PlatenError) as keyless:
            anonymous.embeds.create_session(embed["id"], user_id="user-42")
        self.assertEqual(keyless.exception.code, "INVALID_API_KEY")
        with_key = Platen(base_url=self.base_url, api_key=key)
        minted = with_key.embeds.create_session(embed["id"], user_id="user-42")
        self.assertTrue(minted["token"])

        self.operator.embeds.delete(embed["id"])
        with self.assertRaises(PlatenError) as gone:
            anonymous.embeds.info(embed["id"])
        self.assertEqual(gone.exception.code, "NOT_FOUND")

    def test_url_signing_secrets(self) -> None:
        workspace = self.operator.workspaces.create(name="urls")
        created = self.operator.url_signing_secrets.create(workspace["id"], name="og images", render_cap=5)
        self.assertTrue(created["secret"].startswith("urlsec_"))
        self.assertEqual((created["renderCap"], created["renders"]), (5, 0))
        self.assertEqual(self.operator.url_signing_secrets.update(created["id"], None)["renderCap"], None)
        rotated = self.operator.url_signing_secrets.rotate(created["id"])
        self.assertNotEqual(rotated["secret"], created["secret"])
        self.assertIsNotNone(rotated["previousValidUntil"])
        listed = self.operator.url_signing_secrets.list(workspace["id"])
        self.assertEqual([(s["id"], "secret" in s) for s in listed], [(created["id"], False)])
        self.operator.url_signing_secrets.revoke(created["id"])
        self.assertEqual(self.operator.url_signing_secrets.list(workspace["id"]), [])

    def test_users(self) -> None:
        workspace = self.operator.workspaces.create(name="people")
        email = f"ada-{secrets.token_hex(4)}@example.com"
        user = self.operator.users.create(email, "correct horse battery", [workspace["id"]])
        self.assertEqual(
            (user["email"], user["operator"], user["workspaceIds"]), (email, False, [workspace["id"]])
        )
        self.assertEqual(self.operator.users.get(user["id"]), user)
        self.assertIn(user["id"], [item["id"] for item in self.operator.users.list()])
        with self.assertRaises(PlatenError) as taken:
            self.operator.users.create(email, "another password", [workspace["id"]])
        self.assertEqual(taken.exception.code, "CONFLICT")


if __name__ == "__main__":
    unittest.main()
