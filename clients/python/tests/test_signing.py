"""Signed render URLs: the Python signer produces the very URL the service's own signer makes (run
with node from dist/), the service renders it, and refuses a tampered or expired one.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import unittest
import urllib.error
import urllib.request
from datetime import datetime, timedelta, timezone
from typing import Dict, Tuple

from platen import sign_render_url

from . import service
from .service import REPO_ROOT
from .support import admin, new_workspace, simple_document

VARIABLES = {"name": 'Zoë & Co. — 100% "real"', "odd name": "a+b=c?d/e", "marks": "it's (x)!*~ 😀"}


def setUpModule() -> None:
    service.acquire()


def tearDownModule() -> None:
    service.release()


def get(url: str) -> Tuple[int, str, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=30) as answer:
            return answer.status, answer.headers.get("Content-Type", ""), answer.read()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, error.headers.get("Content-Type", ""), error.read()


def signed_by_the_service(base_url: str, path: str, params: Dict[str, str], secret: str) -> str:
    """The URL the service's own signer makes (`signUrl` of src/auth/url-signature.ts, as built in dist/)."""
    script = (
        "const { signUrl } = await import(process.argv[1]);"
        "const [base, path, params, secret] = JSON.parse(process.argv[2]);"
        "process.stdout.write(signUrl(base, path, params, secret));"
    )
    module = (REPO_ROOT / "dist" / "auth" / "url-signature.js").as_uri()
    node = shutil.which("node") or "node"
    run = subprocess.run(
        [node, "--input-type=module", "-e", script, module, json.dumps([base_url, path, params, secret])],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    if run.returncode != 0:
        raise AssertionError(f"node could not sign: {run.stderr}")
    return run.stdout


class SignRenderUrlTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        workspace = new_workspace(credits=10)
        cls.platen = workspace.platen
        cls.template = cls.platen.templates.create(name="og", document=simple_document())
        cls.other_template = cls.platen.templates.create(name="other", document=simple_document())
        cls.secret = admin().url_signing_secrets.create(workspace.id, name="python sdk")["secret"]
        cls.base_url = service.current().base_url

    def test_the_same_url_as_the_service_signer(self) -> None:
        exp = int((datetime.now(timezone.utc) + timedelta(hours=1)).timestamp())
        python = sign_render_url(
            base_url=self.base_url + "/", template_id=self.template["id"], secret=self.secret, format="jpeg",
            variables=VARIABLES, options={"scale": 2.0, "quality": 80}, expires_at=exp,
        )  # fmt: skip
        path = f"/v1/templates/{self.template['id']}/image.jpeg"
        params = dict(VARIABLES, scale="2", quality="80", exp=str(exp))
        self.assertEqual(python, signed_by_the_service(self.base_url, path, params, self.secret))
        self.assertEqual(get(python)[:2], (200, "image/jpeg"))

    def test_the_service_renders_a_signed_url_once_and_refuses_a_tampered_one(self) -> None:
        expires = datetime.now(timezone.utc) + timedelta(days=7)
        url = self.platen.sign_render_url(
            self.template["id"], secret=self.secret, variables={"name": "Signed"}, options={"scale": 2},
            expires_at=expires,
        )  # fmt: skip
        self.assertTrue(url.startswith(f"{self.base_url}/v1/templates/{self.template['id']}/image.png?"))
        status, content_type, body = get(url)
        self.assertEqual((status, content_type), (200, "image/png"))
        self.assertTrue(body.startswith(b"\x89PNG"))
        self.assertEqual(get(url)[0], 200)  # again: the stored file, free

        for tampered in (
            url.replace("name=Signed", "name=Signee"),
            url.replace("scale=2", "scale=3"),
            url.replace(self.template["id"], self.other_template["id"]),
            url.split("&sig=")[0] + "&sig=" + "0" * 64,
        ):
            with self.subTest(url=tampered):
                status, _, body = get(tampered)
                self.assertEqual((status, json.loads(body)["error"]["code"]), (403, "INVALID_SIGNATURE"))

    def test_options_by_name_and_no_variable_named_like_one(self) -> None:
        url = sign_render_url(
            base_url=self.base_url, template_id=self.template["id"], secret=self.secret,
            variables={"name": "Page"}, options={"page_id": "p1", "quality": None},
        )  # fmt: skip
        self.assertIn("&pageId=p1&", url)
        self.assertNotIn("quality", url)
        self.assertEqual(get(url)[0], 200)
        for name in ("pageId", "scale", "quality", "fps", "dither", "timeMs", "exp", "sig"):
            with self.subTest(name), self.assertRaises(ValueError):
                sign_render_url(base_url="http://x", template_id="tpl_x", secret="s", variables={name: "1"})

    def test_a_video_url_with_its_options(self) -> None:
        url = sign_render_url(
            base_url=self.base_url, template_id=self.template["id"], secret=self.secret, format="gif",
            variables={"name": "Loop"}, options={"fps": 2, "dither": False},
        )  # fmt: skip
        self.assertIn("/image.gif?", url)
        self.assertIn("dither=false", url)
        self.assertEqual(get(url)[:2], (200, "image/gif"))
        still = sign_render_url(
            base_url=self.base_url, template_id=self.template["id"], secret=self.secret,
            variables={"name": "Then"}, options={"time_ms": 0},
        )  # fmt: skip
        self.assertIn("timeMs=0", still)
        self.assertEqual(get(still)[0], 200)

    def test_an_expired_url(self) -> None:
        url = sign_render_url(
            base_url=self.base_url, template_id=self.template["id"], secret=self.secret,
            expires_at=datetime.now(timezone.utc) - timedelta(minutes=1),
        )  # fmt: skip
        status, _, body = get(url)
        self.assertEqual((status, json.loads(body)["error"]["code"]), (403, "URL_EXPIRED"))


if __name__ == "__main__":
    unittest.main()
