"""Rendering through the SDK against the real service: a sync render charged once and its identical
repeat free, `render_and_wait` over a background render, a failed background render raising its
code (and refunded), and the render history and usage that follow.
"""
from __future__ import annotations

import unittest
import urllib.request
from typing import Tuple

from platen import PlatenError

from . import service
from .support import LocalServer, admin, new_workspace, simple_document


def setUpModule() -> None:
    service.acquire()


def tearDownModule() -> None:
    service.release()


def fetch(url: str) -> Tuple[int, str, bytes]:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return answer.status, answer.headers.get("Content-Type", ""), answer.read()


class RenderTest(unittest.TestCase):
    def setUp(self) -> None:
        self.workspace = new_workspace(credits=10)
        self.platen = self.workspace.platen
        self.template = self.platen.templates.create(name="card", document=simple_document())

    def test_a_sync_render_is_charged_once_and_its_identical_repeat_is_free(self) -> None:
        first = self.platen.render(self.template["id"], format="png", modifications={"name": "Ada"})
        self.assertEqual(first["credits"], {"charged": 1, "balanceAfter": 9})
        self.assertEqual((first["format"], first["width"], first["height"]), ("png", 400, 300))
        self.assertEqual(first["templateId"], self.template["id"])
        status, content_type, body = fetch(first["url"])
        self.assertEqual((status, content_type), (200, "image/png"))
        self.assertTrue(body.startswith(b"\x89PNG\r\n\x1a\n"))

        again = self.platen.render(self.template["id"], format="png", modifications={"name": "Ada"})
        self.assertEqual(again["id"], first["id"])
        self.assertEqual(again["url"], first["url"])
        self.assertEqual(again["credits"], {"charged": 0, "balanceAfter": 9})

        other = self.platen.render(self.template["id"], "png", {"name": "Grace"}, scale=2)
        self.assertNotEqual(other["id"], first["id"])
        self.assertEqual((other["width"], other["credits"]["charged"]), (800, 1))

        stored = self.platen.renders.get(first["id"])
        self.assertEqual((stored["url"], stored["credits"]["charged"]), (first["url"], 0))
        listed = [item["id"] for item in self.platen.renders.list(limit=10)["items"]]
        self.assertEqual(sorted(listed), sorted([first["id"], other["id"]]))
        usage = self.platen.usage(days=1)
        self.assertEqual(sum(day["renders"] for day in usage["days"]), 2)
        self.assertEqual(sum(day["credits"] for day in usage["days"]), 2)

    def test_all_pages_of_a_raster_render_come_as_pages(self) -> None:
        document = simple_document()
        second = simple_document("Page two")["pages"][0]
        second["id"] = "p2"
        for element in second["elements"]:
            element["id"] += "-2"
        document["pages"].append(second)
        template = self.platen.templates.create(name="two pages", document=document)
        result = self.platen.render(template["id"], format="png", all_pages=True)
        self.assertEqual(len(result["pages"]), 2)  # type: ignore[typeddict-item]
        pages = result["pages"]  # type: ignore[typeddict-item]
        self.assertEqual([page["credits"]["charged"] for page in pages], [1, 1])
        self.assertEqual(len({page["id"] for page in pages}), 2)
        self.assertEqual(admin().workspaces.get(self.workspace.id)["creditBalance"], 8)

    def test_a_video_is_one_file_and_one_credit_with_its_length_and_frames(self) -> None:
        document = simple_document()
        page = document["pages"][0]
        page["durationMs"] = 1000
        page["elements"][0]["animations"] = [{"preset": "fade", "phase": "in", "durationMs": 400}]
        second = dict(page, id="p2", elements=[dict(e, id=e["id"] + "-2") for e in page["elements"]])
        document["pages"].append(second)
        template = self.platen.templates.create(name="motion", document=document)
        gif = self.platen.render(template["id"], format="gif", all_pages=True, fps=5, dither=False)
        self.assertEqual(
            (gif["format"], gif["durationMs"], gif["frames"], gif["credits"]["charged"]),  # type: ignore[typeddict-item]
            ("gif", 2000, 10, 1),
        )
        status, content_type, body = fetch(gif["url"])  # type: ignore[typeddict-item]
        self.assertEqual((status, content_type), (200, "image/gif"))
        self.assertTrue(body.startswith(b"GIF89a"))
        # A still at a time of its own is another render; the same again is free.
        still = self.platen.render(template["id"], format="png", time_ms=0)
        again = self.platen.render(template["id"], format="png", time_ms=0)
        self.assertEqual((again["id"], again["credits"]["charged"]), (still["id"], 0))  # type: ignore[typeddict-item]
        with self.assertRaises(PlatenError) as raised:
            self.platen.render(template["id"], format="mp4", fps=1000)
        self.assertEqual((raised.exception.status, raised.exception.code), (400, "VALIDATION_FAILED"))
        self.assertEqual(admin().workspaces.get(self.workspace.id)["creditBalance"], 8)

    def test_render_and_wait_follows_a_background_render_to_its_result(self) -> None:
        job = self.platen.render_async(self.template["id"], format="jpeg", modifications={"name": "async"})
        self.assertEqual(job["status"], "pending")
        self.assertEqual(job["credits"], {"charged": 1, "balanceAfter": 9})
        done = self.platen.renders.wait(job["id"], poll_interval=0.1, timeout=60)
        self.assertEqual((done["id"], done["format"]), (job["id"], "jpeg"))  # type: ignore[typeddict-item]
        status, content_type, _ = fetch(done["url"])  # type: ignore[typeddict-item]
        self.assertEqual((status, content_type), (200, "image/jpeg"))

        # The same request again is the same render: already done, so no polling and no charge.
        again = self.platen.render_and_wait(
            self.template["id"], format="jpeg", modifications={"name": "async"}, poll_interval=0.1, timeout=60
        )
        self.assertEqual(again["id"], job["id"])  # type: ignore[typeddict-item]
        fresh = self.platen.render_and_wait(
            self.template["id"], format="png", modifications={"name": "waited"}, poll_interval=0.1, timeout=60
        )
        self.assertEqual(fresh["format"], "png")  # type: ignore[typeddict-item]
        self.assertEqual(admin().workspaces.get(self.workspace.id)["creditBalance"], 8)

    def test_a_failed_background_render_raises_its_code_and_is_refunded(self) -> None:
        origin = LocalServer(lambda method, path, headers, body: (500, b"broken"))
        try:
            broken = simple_document(image_src=f"{origin.base_url}/broken.png")
            template = self.platen.templates.create(name="broken image", document=broken)
            with self.assertRaises(PlatenError) as caught:
                self.platen.render_and_wait(template["id"], format="png", poll_interval=0.1, timeout=60)
        finally:
            origin.close()
        error = caught.exception
        self.assertEqual((error.code, error.status), ("RENDER_FAILED", 422))
        self.assertIsNotNone(error.details)
        self.assertTrue(str(error).startswith("RENDER_FAILED (422): render rnd_"), str(error))
        deltas = [entry["delta"] for entry in admin().ledger.list(self.workspace.id)]
        self.assertEqual(sorted(deltas), sorted([10, -1, 1]))
        failed = [item for item in self.platen.renders.list()["items"] if item["status"] == "failed"]
        self.assertEqual([item["errorCode"] for item in failed], ["RENDER_FAILED"])


if __name__ == "__main__":
    unittest.main()
