"""One HTTP transport per credential, over urllib.request.

It joins the base URL and a path, encodes the query, sends JSON or raw bytes with the credential
(`Authorization: Bearer …`) and the SDK's `User-Agent`, never follows a redirect (a credential must
not travel to another host), turns a failure to get any answer into `PlatenConnectionError` and
any answer that is not 2xx into `PlatenError` with the API's code. Every helper goes through it.
"""
from __future__ import annotations

import http.client
import json
import socket
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Mapping, Optional

from ._version import __version__
from .errors import PlatenConnectionError, PlatenError

USER_AGENT = f"platen-python/{__version__}"
_NO_BODY = object()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirect is answered as it is (raised as an HTTPError, so as a PlatenError), never followed."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):  # type: ignore[no-untyped-def]
        return None


_OPENER = urllib.request.build_opener(_NoRedirect)


def segment(value: str) -> str:
    """An id as one path segment: percent-encoded, so it cannot name another route."""
    return urllib.parse.quote(str(value), safe="")


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def encode_query(query: Optional[Mapping[str, Any]]) -> str:
    """`?a=1&b=x%20y` from a mapping, leaving out None values; '' when nothing is left."""
    if not query:
        return ""
    pairs = [(name, _query_value(value)) for name, value in query.items() if value is not None]
    if not pairs:
        return ""
    return "?" + urllib.parse.urlencode(pairs, quote_via=urllib.parse.quote)


def check_base_url(base_url: str) -> str:
    """The base URL without trailing slashes; PlatenConnectionError when it is no absolute http(s) URL."""
    if not isinstance(base_url, str):
        raise PlatenConnectionError(repr(base_url), "the base URL must be a string")
    parsed = urllib.parse.urlsplit(base_url.strip())
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise PlatenConnectionError(base_url, "the base URL must be an absolute http(s) URL")
    return base_url.strip().rstrip("/")


class Response:
    """A 2xx answer: its status, headers and body."""

    def __init__(self, status: int, headers: Mapping[str, str], body: bytes) -> None:
        self.status = status
        self.headers = headers
        self.body = body

    def json(self) -> Any:
        if not self.body:
            return None
        return json.loads(self.body.decode("utf-8"))


def _retry_after(headers: Mapping[str, str]) -> Optional[float]:
    value = headers.get("Retry-After")
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


def error_from_answer(status: int, reason: str, headers: Mapping[str, str], body: bytes) -> PlatenError:
    """The API's error when the body is its envelope, else a generic `HTTP_<status>` one."""
    parsed: Any = None
    try:
        parsed = json.loads(body.decode("utf-8")) if body else None
    except (ValueError, UnicodeDecodeError):
        parsed = None
    error = parsed.get("error") if isinstance(parsed, dict) else None
    if isinstance(error, dict) and isinstance(error.get("code"), str):
        return PlatenError(
            status,
            error["code"],
            str(error.get("message", "")),
            error.get("requestId") or headers.get("X-Request-Id"),
            error.get("details"),
            _retry_after(headers),
        )
    return PlatenError(
        status,
        f"HTTP_{status}",
        f"{status} {reason or 'error'}".strip(),
        headers.get("X-Request-Id"),
        None,
        _retry_after(headers),
    )


def _reason(error: BaseException) -> str:
    if isinstance(error, urllib.error.URLError) and not isinstance(error, urllib.error.HTTPError):
        inner = error.reason
        return str(inner) if not isinstance(inner, BaseException) else _reason(inner)
    if isinstance(error, (socket.timeout, TimeoutError)):
        return f"timed out ({error})" if str(error) else "timed out"
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


def send(
    method: str,
    url: str,
    *,
    headers: Mapping[str, str],
    data: Optional[bytes],
    timeout: float,
) -> Response:
    """One request to an absolute URL: the 2xx answer, or PlatenError / PlatenConnectionError."""
    request = urllib.request.Request(url, data=data, method=method, headers=dict(headers))
    try:
        with _OPENER.open(request, timeout=timeout) as answer:
            return Response(answer.status, answer.headers, answer.read())
    except urllib.error.HTTPError as error:
        try:
            body = error.read()
        except (OSError, http.client.HTTPException):
            body = b""
        finally:
            error.close()
        raise error_from_answer(error.code, str(error.reason), error.headers, body) from None
    except (urllib.error.URLError, http.client.HTTPException, OSError, ValueError) as error:
        raise PlatenConnectionError(_origin(url), _reason(error)) from error


def _origin(url: str) -> str:
    parsed = urllib.parse.urlsplit(url)
    return f"{parsed.scheme}://{parsed.netloc}" if parsed.scheme and parsed.netloc else url


class Transport:
    """The base URL, the credential and the timeout one client sends every request with."""

    def __init__(self, base_url: str, credential: Optional[str], timeout: float) -> None:
        self.base_url = check_base_url(base_url)
        self.timeout = float(timeout)
        self._credential = credential

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Mapping[str, Any]] = None,
        json_body: Any = _NO_BODY,
        data: Optional[bytes] = None,
        content_type: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> Response:
        sent = {"User-Agent": USER_AGENT, "Accept": "application/json"}
        if self._credential:
            sent["Authorization"] = f"Bearer {self._credential}"
        body = data
        if json_body is not _NO_BODY:
            text = json.dumps(json_body, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
            body = text.encode("utf-8")
            content_type = content_type or "application/json"
        if body is not None and content_type:
            sent["Content-Type"] = content_type
        if headers:
            sent.update(headers)
        url = self.base_url + path + encode_query(query)
        return send(method, url, headers=sent, data=body, timeout=self.timeout)

    def call(self, method: str, path: str, **options: Any) -> Any:
        """The parsed JSON of the answer (None for 204)."""
        answer = self.request(method, path, **options)
        try:
            return answer.json()
        except (ValueError, UnicodeDecodeError):
            # Not the service's answer (a proxy's page): kept as an error with its status.
            request_id = answer.headers.get("X-Request-Id")
            message = f"{answer.status}: the answer is not JSON"
            raise PlatenError(answer.status, f"HTTP_{answer.status}", message, request_id) from None

    def download(self, url: str) -> bytes:
        """A file by its capability URL, without the credential (the URL is the capability)."""
        absolute = urllib.parse.urljoin(self.base_url + "/", url)
        headers = {"User-Agent": USER_AGENT}
        return send("GET", absolute, headers=headers, data=None, timeout=self.timeout).body
