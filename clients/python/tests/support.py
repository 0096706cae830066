"""What the test modules share: clients of the running service, fresh workspaces, a design document,
small HTTP servers on 127.0.0.1 (a broken image origin, a webhook receiver) and `eventually`.
"""
from __future__ import annotations

import base64
import http.server
import threading
import time
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple

from platen import Platen, PlatenAdmin

from . import service

ALL_SCOPES = ["template:read", "template:write", "render:write", "asset:read", "asset:write"]

# A valid 1x1 PNG.
PNG_1X1 = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
)


def admin() -> PlatenAdmin:
    running = service.current()
    return PlatenAdmin(base_url=running.base_url, admin_token=running.admin_token, timeout=30.0)


class Workspace(NamedTuple):
    id: str
    key: str
    platen: Platen


def new_workspace(credits: int = 20, scopes: Optional[List[str]] = None) -> Workspace:
    """A workspace of its own (so balances are the test's alone) and a client with a fresh key."""
    operator = admin()
    workspace = operator.workspaces.create(name="python-sdk-test", credits=credits)
    key = operator.api_keys.create(workspace["id"], scopes or ALL_SCOPES, name="python sdk test")
    platen = Platen(base_url=service.current().base_url, api_key=key["key"], timeout=30.0)
    return Workspace(workspace["id"], key["key"], platen)


def simple_document(text: str = "Hello {{name}}", image_src: Optional[str] = None) -> Dict[str, Any]:
    """A 400 × 300 page: a rectangle named `card`, a text named `headline`, optionally an image."""
    elements: List[Dict[str, Any]] = [
        {"id": "r1", "type": "rect", "name": "card", "x": 20, "y": 20, "width": 360, "height": 260,
         "fill": "#e8eefc", "cornerRadius": 12},
        {"id": "t1", "type": "text", "name": "headline", "x": 40, "y": 40, "width": 320, "height": 100,
         "text": text, "fontFamily": "Inter", "fontSize": 32},
    ]  # fmt: skip
    if image_src is not None:
        image = {"id": "img", "type": "image", "x": 0, "y": 0, "width": 40, "height": 40, "src": image_src}
        elements.append(image)
    return {
        "schemaVersion": 1,
        "activePageId": "p1",
        "pages": [{"id": "p1", "width": 400, "height": 300, "background": "#ffffff", "elements": elements}],
    }


Handler = Callable[[str, str, Dict[str, str], bytes], Tuple[int, bytes]]


class LocalServer:
    """An HTTP server on 127.0.0.1 in a thread; `handler(method, path, headers, body)` answers.

    Every request is kept in `requests` as (method, path, headers, body), body as received.
    """

    def __init__(self, handler: Handler) -> None:
        self.requests: List[Tuple[str, str, Dict[str, str], bytes]] = []
        owner = self

        class _Handler(http.server.BaseHTTPRequestHandler):
            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                headers = {name.lower(): value for name, value in self.headers.items()}
                owner.requests.append((self.command, self.path, headers, body))
                status, payload = handler(self.command, self.path, headers, body)
                try:
                    self.send_response(status)
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _answer  # noqa: N815

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._server.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


def eventually(check: Callable[[], Any], timeout: float = 30.0, interval: float = 0.2) -> Any:
    """The first truthy value of `check()`, retried until `timeout`; AssertionError after it."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"still not true after {timeout:g} s")
        time.sleep(interval)
