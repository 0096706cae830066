"""Templates and assets through the SDK: create, read, page through, save with `if_match` (a stale
revision raising PRECONDITION_FAILED), rename and share, delete; upload, read, download and delete
an asset.
"""
from __future__ import annotations

import unittest

from platen import PlatenError

from . import service
from .support import PNG_1X1, new_workspace, simple_document


def setUpModule() -> None:
    service.acquire()


def tearDownModule() -> None:
    service.release()


class TemplatesTest(unittest.TestCase):
    def setUp(self) -> None:
        self.platen = new_workspace(credits=0).platen

    def test_create_read_list_and_page_through(self) -> None:
        blank = self.platen.templates.create(name="blank", width=640, height=480)
        self.assertEqual((blank["width"], blank["height"], blank["revision"]), (640, 480, 1))
        self.assertIn("pages", blank["document"])
        made = [self.platen.templates.create(name=f"t{n}", document=simple_document()) for n in range(3)]
        got = self.platen.templates.get(made[0]["id"])
        self.assertEqual((got["name"], got["document"]["pages"][0]["id"]), ("t0", "p1"))

        first = self.platen.templates.list(limit=2)
        self.assertEqual(len(first["items"]), 2)
        self.assertIsNotNone(first["nextCursor"])
        second = self.platen.templates.list(limit=2, cursor=first["nextCursor"])
        self.assertEqual(len(second["items"]), 2)
        everything = [template["id"] for template in self.platen.templates.all(page_size=1)]
        self.assertEqual(sorted(everything), sorted([blank["id"], *[t["id"] for t in made]]))
        # Newest first.
        self.assertEqual(everything[0], made[-1]["id"])

    def test_save_with_if_match_and_a_stale_revision(self) -> None:
        template = self.platen.templates.create(name="draft", document=simple_document())
        saved = self.platen.templates.save(
            template["id"], simple_document("Second"), if_match=template["revision"]
        )
        self.assertEqual(saved["revision"], template["revision"] + 1)
        self.assertEqual(saved["document"]["pages"][0]["elements"][1]["text"], "Second")
        # An ETag string works as well as the revision number.
        renamed = self.platen.templates.save(
            template["id"], simple_document("Third"), name="renamed", if_match=f'"{saved["revision"]}"'
        )
        self.assertEqual((renamed["name"], renamed["revision"]), ("renamed", 3))

        with self.assertRaises(PlatenError) as caught:
            self.platen.templates.save(template["id"], simple_document("Lost"), if_match=template["revision"])
        self.assertEqual((caught.exception.code, caught.exception.status), ("PRECONDITION_FAILED", 412))
        self.assertEqual(self.platen.templates.get(template["id"])["revision"], 3)

    def test_update_metadata_and_delete(self) -> None:
        template = self.platen.templates.create(name="meta", document=simple_document())
        updated = self.platen.templates.update(template["id"], name="shared one", shared=True)
        self.assertEqual((updated["name"], updated["shared"]), ("shared one", True))
        self.assertEqual(updated["revision"], template["revision"])
        self.assertIsNone(self.platen.templates.delete(template["id"]))
        with self.assertRaises(PlatenError) as caught:
            self.platen.templates.get(template["id"])
        self.assertEqual(caught.exception.code, "NOT_FOUND")


class AssetsTest(unittest.TestCase):
    def test_upload_read_download_and_delete(self) -> None:
        platen = new_workspace(credits=0).platen
        asset = platen.assets.upload(PNG_1X1, "image/png")
        self.assertEqual(
            (asset["kind"], asset["mimeType"], asset["byteSize"]), ("image", "image/png", len(PNG_1X1))
        )
        self.assertEqual((asset.get("width"), asset.get("height")), (1, 1))
        self.assertEqual(platen.assets.get(asset["id"])["url"], asset["url"])
        self.assertEqual([item["id"] for item in platen.assets.list()["items"]], [asset["id"]])
        self.assertEqual([item["id"] for item in platen.assets.all()], [asset["id"]])
        self.assertEqual(platen.assets.download(asset), PNG_1X1)
        self.assertEqual(platen.assets.download(asset["id"]), PNG_1X1)

        with self.assertRaises(PlatenError) as caught:
            platen.assets.upload(b"this is no image", "application/octet-stream")
        self.assertEqual(caught.exception.code, "UNSUPPORTED_MEDIA_TYPE")

        platen.assets.delete(asset["id"])
        with self.assertRaises(PlatenError) as gone:
            platen.assets.get(asset["id"])
        self.assertEqual((gone.exception.code, gone.exception.status), ("NOT_FOUND", 404))


if __name__ == "__main__":
    unittest.main()


class VersionsTest(unittest.TestCase):
    def setUp(self) -> None:
        self.platen = new_workspace(credits=5).platen

    def test_publish_pin_roll_back_and_diff(self) -> None:
        template = self.platen.templates.create(name="versions", document=simple_document())
        first = self.platen.templates.publish(template["id"], note="launch")
        self.assertEqual((first["number"], first["note"]), (1, "launch"))
        self.assertEqual(self.platen.templates.publish(template["id"])["number"], 1)
        saved = self.platen.templates.save(template["id"], simple_document("Changed {{name}}"))
        listed = self.platen.templates.versions(template["id"])
        self.assertEqual([v["number"] for v in listed["items"]], [1])
        self.assertEqual(self.platen.templates.version(template["id"], "latest")["document"], first["document"])

        pinned = self.platen.render(template["id"], "png", {"name": "P"}, version=1)
        self.assertEqual(pinned["version"], 1)
        with self.assertRaises(PlatenError) as missing:
            self.platen.render(template["id"], "png", version=3)
        self.assertEqual(missing.exception.code, "NOT_FOUND")

        diff = self.platen.templates.diff(template["id"], from_=1, to="draft")
        self.assertEqual(
            diff["changes"],
            [{"op": "set", "path": "pages[p1].elements[t1].text", "from": "Hello {{name}}", "to": "Changed {{name}}"}],
        )
        picture = self.platen.templates.diff_image(template["id"], from_=1)
        self.assertEqual(picture[:8], b"\x89PNG\r\n\x1a\n")

        with self.assertRaises(PlatenError) as stale:
            self.platen.templates.rollback(template["id"], 1, if_match=saved["revision"] - 1)
        self.assertEqual(stale.exception.code, "PRECONDITION_FAILED")
        rolled = self.platen.templates.rollback(template["id"], 1, if_match=saved["revision"])
        self.assertEqual((rolled["revision"], rolled["document"]), (saved["revision"] + 1, first["document"]))

    def test_variables_estimate_and_a_service_signed_url(self) -> None:
        template = self.platen.templates.create(name="planning", document=simple_document())
        names = {v["name"]: v["kind"] for v in self.platen.templates.variables(template["id"])["variables"]}
        self.assertEqual((names["name"], names["card"], names["card.visible"]), ("text", "color", "visibility"))
        preview = self.platen.templates.preview(template["id"], {"name": "p"})
        copy = self.platen.assets.upload_from_url(self.platen.assets.upload(PNG_1X1, "image/png")["url"])
        self.assertEqual((copy["kind"], copy["width"]), ("image", 1))
        self.assertEqual(preview[:8], b"\x89PNG\r\n\x1a\n")
        checked = self.platen.templates.preflight(template["id"], rows=[{"name": "fine"}, {"name": "สวัสดี"}])
        self.assertEqual((checked["rowsWithErrors"], checked["findings"][0]["code"]), ([1], "missing-glyphs"))
        estimate = self.platen.renders.estimate(template["id"], rows=[{"name": "a"}, {"name": "a"}, {"name": "b"}])
        self.assertEqual((estimate["files"], estimate["credits"], estimate["identical"]), (3, 2, 1))
        with self.assertRaises(PlatenError) as none:
            self.platen.renders.signed_url(template["id"])
        self.assertEqual((none.exception.code, none.exception.status), ("CONFLICT", 409))
