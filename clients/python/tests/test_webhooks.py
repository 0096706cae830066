"""Webhook verification against real deliveries: a receiver on 127.0.0.1 subscribed through
PlatenAdmin to `render.completed` gets the service's signed POST, `verify_webhook` accepts it and
refuses it tampered, stale, or checked with another secret; the delivery log, a redelivery (same
`webhook-id`) and a rotated secret behave as documented.
"""
from __future__ import annotations

import time
import unittest
from typing import Dict, Tuple

from platen import WebhookVerificationError, sign_webhook, verify_webhook

from . import service
from .support import LocalServer, admin, new_workspace, simple_document


def setUpModule() -> None:
    service.acquire()


def tearDownModule() -> None:
    service.release()


class WebhookTest(unittest.TestCase):
    def setUp(self) -> None:
        self.receiver = LocalServer(lambda method, path, headers, body: (204, b""))
        self.addCleanup(self.receiver.close)
        self.workspace = new_workspace(credits=10)
        target = f"{self.receiver.base_url}/hooks"
        self.hook = admin().webhooks.create(self.workspace.id, target, ["render.completed"])
        self.template = self.workspace.platen.templates.create(name="card", document=simple_document())

    def delivery(self, count: int = 1) -> Tuple[Dict[str, str], bytes]:
        """The `count`-th request the receiver got (waiting for it)."""
        deadline = time.monotonic() + 30
        while len(self.receiver.requests) < count:
            if time.monotonic() > deadline:
                self.fail(f"no delivery #{count} within 30 s")
            time.sleep(0.1)
        method, path, headers, body = self.receiver.requests[count - 1]
        self.assertEqual((method, path), ("POST", "/hooks"))
        return headers, body

    def test_a_real_delivery_verifies_and_a_tampered_or_stale_one_does_not(self) -> None:
        self.assertTrue(self.hook["secret"].startswith("whsec_"))
        job = self.workspace.platen.render_async(self.template["id"], modifications={"name": "hooked"})
        headers, body = self.delivery()
        event = verify_webhook(self.hook["secret"], headers, body)
        self.assertEqual(event["type"], "render.completed")
        render = event["data"]["render"]
        self.assertEqual((render["id"], render["status"]), (job["id"], "done"))
        self.assertEqual(render["result"]["url"], self.workspace.platen.renders.get(job["id"])["url"])
        # Header names in any case, the body as text as well as bytes.
        upper = {name.upper(): value for name, value in headers.items()}
        self.assertEqual(verify_webhook(self.hook["secret"], upper, body.decode("utf-8")), event)

        refusals = {
            "tampered body": (self.hook["secret"], headers, body.replace(b'"done"', b'"fine"')),
            "another secret": (another_secret(), headers, body),
            "no signature header": (self.hook["secret"], without(headers, "webhook-signature"), body),
            "another message id": (self.hook["secret"], dict(headers, **{"webhook-id": "msg_other"}), body),
        }
        for reason, (secret, sent, raw) in refusals.items():
            with self.subTest(reason), self.assertRaises(WebhookVerificationError):
                verify_webhook(secret, sent, raw)
        # A delivery as old as six minutes, rightly signed, is refused (5-minute tolerance) ...
        old = int(time.time()) - 6 * 60
        stale = dict(headers)
        stale["webhook-timestamp"] = str(old)
        stale["webhook-signature"] = sign_webhook(self.hook["secret"], headers["webhook-id"], old, body)
        with self.assertRaisesRegex(WebhookVerificationError, "too old"):
            verify_webhook(self.hook["secret"], stale, body)
        # ... and so is the real one when checked six minutes later.
        with self.assertRaisesRegex(WebhookVerificationError, "too old"):
            verify_webhook(self.hook["secret"], headers, body, now=time.time() + 6 * 60)
        # Any of several space-separated signatures may match.
        several = dict(headers)
        several["webhook-signature"] = "v1,bm90IGl0 v2,whatever " + headers["webhook-signature"]
        self.assertEqual(verify_webhook(self.hook["secret"], several, body)["type"], "render.completed")

    def test_delivery_log_redelivery_and_rotation(self) -> None:
        operator = admin()
        self.workspace.platen.render_async(self.template["id"], modifications={"name": "first"})
        first_headers, _ = self.delivery()
        # The receiver has the message; the service records the attempt once the answer is in.
        deadline = time.monotonic() + 10
        deliveries = operator.webhooks.deliveries(self.hook["id"], limit=10)
        while not deliveries and time.monotonic() < deadline:
            time.sleep(0.05)
            deliveries = operator.webhooks.deliveries(self.hook["id"], limit=10)
        attempts = [(d["eventType"], d["ok"], d["statusCode"]) for d in deliveries]
        self.assertEqual(attempts, [("render.completed", True, 204)])
        self.assertEqual(deliveries[0]["messageId"], first_headers["webhook-id"])

        rotated = operator.webhooks.rotate_secret(self.hook["id"])
        self.assertNotEqual(rotated["secret"], self.hook["secret"])
        redelivery = operator.webhooks.redeliver(self.hook["id"], deliveries[0]["messageId"])
        self.assertEqual(redelivery, {"queued": True})
        headers, body = self.delivery(2)
        self.assertEqual(headers["webhook-id"], first_headers["webhook-id"])
        self.assertEqual(verify_webhook(rotated["secret"], headers, body)["type"], "render.completed")
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(self.hook["secret"], headers, body)

        updated = operator.webhooks.update(self.hook["id"], events=["render.completed", "render.failed"])
        self.assertEqual(updated["events"], ["render.completed", "render.failed"])
        listed = [hook["id"] for hook in operator.webhooks.list(self.workspace.id)]
        self.assertEqual(listed, [self.hook["id"]])
        self.assertNotIn("secret", operator.webhooks.get(self.hook["id"]))
        operator.webhooks.delete(self.hook["id"])
        self.assertEqual(operator.webhooks.list(self.workspace.id), [])


def another_secret() -> str:
    """Another valid secret (a fresh webhook's), to verify with the wrong key."""
    workspace = admin().workspaces.create(name="other")
    return admin().webhooks.create(workspace["id"], "http://127.0.0.1:9/none", ["batch.completed"])["secret"]


def without(headers: Dict[str, str], name: str) -> Dict[str, str]:
    return {key: value for key, value in headers.items() if key != name}


if __name__ == "__main__":
    unittest.main()
