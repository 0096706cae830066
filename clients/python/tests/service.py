"""The real Platen service the tests talk to: `node dist/main.js` as a child process on 127.0.0.1.

One process serves the whole test run. Each test module holds a reference from `setUpModule` to
`tearDownModule` (`acquire` / `release`); so does the package's suite (tests/__init__.py) for the
whole discovery, so the service starts once however many modules run, and stops (SIGTERM, then
SIGKILL) when the last reference goes. It runs on a fresh data directory with a random operator
token, and the first-start API key it prints is read from its standard output.
"""
from __future__ import annotations

import atexit
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import List, Optional

REPO_ROOT = Path(__file__).resolve().parents[3]
MAIN_JS = REPO_ROOT / "dist" / "main.js"
START_TIMEOUT = 90.0
_KEY_LINE = re.compile(r"PLATEN_API_KEY=(plt_[A-Za-z0-9_-]+)")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Service:
    """A started service: its base URL, operator token and first-start API key."""

    def __init__(self) -> None:
        if not MAIN_JS.is_file():
            raise RuntimeError(
                f"{MAIN_JS.relative_to(REPO_ROOT)} is missing: run `npm run build` at the repository root "
                "(the Python SDK's tests start the compiled service)"
            )
        node = shutil.which("node")
        if node is None:
            raise RuntimeError("node is not on PATH: the Python SDK's tests start the service with it")
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.admin_token = "adm_" + secrets.token_urlsafe(24)
        self.data_dir = tempfile.mkdtemp(prefix="platen-python-sdk-")
        self.stdout: List[str] = []
        self.stderr: List[str] = []
        self.bootstrap_key: Optional[str] = None
        # The service's own variables only: none of the caller's PLATEN_* or database settings.
        env = {
            name: value
            for name, value in os.environ.items()
            if not name.startswith("PLATEN_") and name not in ("DATABASE_URL", "PORT")
        }
        env.update(
            PORT=str(self.port),
            PLATEN_HOST="127.0.0.1",
            PLATEN_BASE_URL=self.base_url,
            PLATEN_DATA_DIR=self.data_dir,
            PLATEN_ADMIN_TOKEN=self.admin_token,
            PLATEN_LOG_LEVEL="warn",
            PLATEN_RENDER_RATE_LIMIT="0",
            PLATEN_ALLOW_PRIVATE_URLS="true",
        )
        self.process = subprocess.Popen(
            [node, str(MAIN_JS)],
            cwd=str(REPO_ROOT),
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        self._readers = [
            self._drain(self.process.stdout, self.stdout),
            self._drain(self.process.stderr, self.stderr),
        ]
        try:
            self._wait_until_ready()
        except BaseException:
            self.stop()
            raise

    @staticmethod
    def _drain(stream: Optional[object], lines: List[str]) -> threading.Thread:
        def run() -> None:
            for raw in iter(stream.readline, b""):  # type: ignore[attr-defined]
                lines.append(raw.decode("utf-8", "replace"))

        reader = threading.Thread(target=run, daemon=True)
        reader.start()
        return reader

    def _wait_until_ready(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        healthy = False
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"the service exited with {self.process.returncode} before answering /healthz:\n"
                    + "".join(self.stderr[-40:])
                )
            if not healthy:
                try:
                    with urllib.request.urlopen(f"{self.base_url}/healthz", timeout=2) as answer:
                        healthy = answer.status == 200
                except OSError:
                    pass
            if healthy:
                # The first-start key is printed before the service listens.
                match = _KEY_LINE.search("".join(self.stdout))
                if match:
                    self.bootstrap_key = match.group(1)
                    return
            time.sleep(0.1)
        raise RuntimeError(
            f"the service did not {'print its first-start API key' if healthy else 'answer /healthz'} "
            f"within {START_TIMEOUT:.0f} s:\n" + "".join(self.stderr[-40:])
        )

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                # Its own process group (start_new_session): the service and any render process it started.
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)
        for reader in self._readers:
            reader.join(timeout=5)
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()
        shutil.rmtree(self.data_dir, ignore_errors=True)


_lock = threading.Lock()
_current: Optional[Service] = None
_references = 0
_failure: Optional[BaseException] = None


def acquire() -> Service:
    """The running service, started on first use; each call needs a `release()`."""
    global _current, _references, _failure
    with _lock:
        if _failure is not None:
            raise RuntimeError(f"the service could not be started: {_failure}") from _failure
        if _current is None:
            _exit_on_sigterm()
            try:
                _current = Service()
            except BaseException as error:
                _failure = error
                raise
        _references += 1
        return _current


def release() -> None:
    global _current, _references
    with _lock:
        _references = max(0, _references - 1)
        if _references == 0 and _current is not None:
            service, _current = _current, None
            service.stop()


def current() -> Service:
    if _current is None:
        raise RuntimeError("no service is running: call service.acquire() in setUpModule")
    return _current


def _exit_on_sigterm() -> None:
    """A SIGTERM to the test run (a runner's timeout) unwinds it, so the service is stopped too."""
    in_main_thread = threading.current_thread() is threading.main_thread()
    if in_main_thread and signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:

        def leave(signum: int, frame: object) -> None:
            raise SystemExit(128 + signum)

        signal.signal(signal.SIGTERM, leave)


@atexit.register
def _stop_at_exit() -> None:
    if _current is not None:
        _current.stop()
