"""Batches through the SDK: from rows and from CSV (options in the query), waited for, and their
ZIP opened with zipfile; a bad CSV refused with details; cancelling a finished batch a CONFLICT.
"""
from __future__ import annotations

import csv
import io
import json
import unittest
import zipfile

from platen import PlatenError

from . import service
from .support import admin, new_workspace, simple_document


def setUpModule() -> None:
    service.acquire()


def tearDownModule() -> None:
    service.release()


class BatchesTest(unittest.TestCase):
    def setUp(self) -> None:
        self.workspace = new_workspace(credits=10)
        self.platen = self.workspace.platen
        self.template = self.platen.templates.create(name="card", document=simple_document())

    def test_a_batch_from_rows_waited_for_and_zipped(self) -> None:
        rows = [{"name": "A"}, {"name": "B"}]
        batch = self.platen.batches.create(self.template["id"], rows=rows, format="png")
        self.assertEqual((batch["total"], batch["format"], len(batch["rows"])), (2, "png", 2))
        self.assertEqual(batch["templateId"], self.template["id"])
        finished = self.platen.batches.wait(batch["id"], poll_interval=0.2, timeout=120)
        self.assertEqual(finished["status"], "completed")
        self.assertEqual(finished["progress"], {"done": 2, "failed": 0, "pending": 0})
        self.assertEqual([row["status"] for row in finished["rows"]], ["done", "done"])
        self.assertEqual(self.platen.batches.get(batch["id"])["finishedAt"], finished["finishedAt"])

        archive = zipfile.ZipFile(io.BytesIO(self.platen.batches.download_zip(batch["id"])))
        self.assertEqual(sorted(archive.namelist()), ["manifest.json", "row-1.png", "row-2.png"])
        self.assertEqual(json.loads(archive.read("manifest.json"))["id"], batch["id"])
        self.assertTrue(archive.read("row-1.png").startswith(b"\x89PNG"))
        self.assertNotEqual(archive.read("row-1.png"), archive.read("row-2.png"))
        self.assertEqual(admin().workspaces.get(self.workspace.id)["creditBalance"], 8)

        with self.assertRaises(PlatenError) as caught:
            self.platen.batches.cancel(batch["id"])
        self.assertEqual((caught.exception.code, caught.exception.status), ("CONFLICT", 409))

    def test_a_batch_from_csv_with_options_in_the_query(self) -> None:
        text = io.StringIO()
        writer = csv.writer(text, lineterminator="\r\n")
        writer.writerows([["name"], ["Smith, Jane"], ['Say "hi"']])
        batch = self.platen.batches.create_from_csv(
            self.template["id"], text.getvalue(), format="jpeg", scale=2
        )
        self.assertEqual((batch["total"], batch["format"]), (2, "jpeg"))
        finished = self.platen.batches.wait(batch["id"], poll_interval=0.2, timeout=120)
        self.assertEqual(finished["progress"]["done"], 2)
        first = self.platen.renders.get(finished["rows"][0]["renderId"] or "")
        self.assertEqual((first["format"], first["width"], first["height"]), ("jpeg", 800, 600))
        archive = zipfile.ZipFile(io.BytesIO(self.platen.batches.download_zip(batch["id"])))
        self.assertEqual(sorted(archive.namelist()), ["manifest.json", "row-1.jpg", "row-2.jpg"])
        self.assertTrue(archive.read("row-2.jpg").startswith(b"\xff\xd8"))

    def test_a_csv_naming_no_variable_is_refused_whole(self) -> None:
        with self.assertRaises(PlatenError) as caught:
            self.platen.batches.create_from_csv(self.template["id"], "nosuchvariable\nx\n")
        self.assertEqual(caught.exception.code, "VALIDATION_FAILED")
        self.assertTrue(caught.exception.details)
        self.assertEqual(admin().workspaces.get(self.workspace.id)["creditBalance"], 10)


if __name__ == "__main__":
    unittest.main()
