"""What a failed call raises.

`PlatenError` carries the API's own error (docs/api.md, Errors): the stable UPPER_SNAKE `code` to
branch on, the HTTP `status`, the human `message`, the `request_id` that finds the request in the
service's logs, and `details` where the code has them. An answer that is not the API's error body (a
proxy's HTML page) keeps its status with the code `HTTP_<status>`.

`PlatenConnectionError` means no answer came at all: a bad base URL, a refused connection, a DNS
failure, a timeout. `PlatenTimeoutError` means the service answered but a `wait` helper gave up
before the render or batch finished.
"""
from __future__ import annotations

from typing import Any, Dict, Optional

# The service's catalogue (src/core/errors.ts): the status each code answers with. Used to give a
# failed background render, which is reported inside a 200 answer, the status the render route
# would have answered.
CODE_STATUS: Dict[str, int] = {
    "INVALID_JSON": 400,
    "VALIDATION_FAILED": 400,
    "UNAUTHORIZED": 401,
    "INVALID_SESSION": 401,
    "INSUFFICIENT_CREDITS": 402,
    "INVALID_API_KEY": 403,
    "INVALID_SIGNATURE": 403,
    "URL_EXPIRED": 403,
    "RENDER_CAP_REACHED": 403,
    "SUBSCRIPTION_SUSPENDED": 403,
    "WORKSPACE_MISMATCH": 403,
    "INSUFFICIENT_SCOPE": 403,
    "EMBED_DISABLED": 403,
    "FORBIDDEN": 403,
    "NOT_FOUND": 404,
    "METHOD_NOT_ALLOWED": 405,
    "EXPECTATION_FAILED": 417,
    "CONFLICT": 409,
    "PRECONDITION_FAILED": 412,
    "PAYLOAD_TOO_LARGE": 413,
    "UNSUPPORTED_MEDIA_TYPE": 415,
    "RENDER_FAILED": 422,
    "RATE_LIMITED": 429,
    "INTERNAL": 500,
    "OVERLOADED": 503,
}


def _one_line(text: str) -> str:
    return " ".join(text.split())


class PlatenError(Exception):
    """An error answer of the API. `str(error)` is one line: `CODE (status): message`."""

    status: int
    code: str
    message: str
    request_id: Optional[str]
    details: Any
    retry_after: Optional[float]

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        request_id: Optional[str] = None,
        details: Any = None,
        retry_after: Optional[float] = None,
    ) -> None:
        self.status = status
        self.code = code
        self.message = message
        self.request_id = request_id
        self.details = details
        # Seconds to wait before retrying (the `Retry-After` header of RATE_LIMITED and OVERLOADED).
        self.retry_after = retry_after
        super().__init__(f"{code} ({status}): {_one_line(message)}")

    def __repr__(self) -> str:
        return (
            f"PlatenError(status={self.status!r}, code={self.code!r}, message={self.message!r}, "
            f"request_id={self.request_id!r}, details={self.details!r})"
        )

    def __reduce__(self) -> Any:
        args = (self.status, self.code, self.message, self.request_id, self.details, self.retry_after)
        return (type(self), args)


class PlatenConnectionError(Exception):
    """No answer came: a bad base URL, a refused connection, a DNS failure or a timeout."""

    url: str
    reason: str

    def __init__(self, url: str, reason: str) -> None:
        self.url = url
        self.reason = reason
        super().__init__(f"could not reach {url}: {_one_line(reason)}")

    def __reduce__(self) -> Any:
        return (type(self), (self.url, self.reason))


class PlatenTimeoutError(TimeoutError):
    """A `wait` helper gave up: the render or batch was still running when `timeout` passed.

    `resource_id` is the render or batch id (wait on it again to go on), `last` its last state.
    """

    resource_id: str
    last: Any

    def __init__(self, resource_id: str, timeout: float, last: Any = None) -> None:
        self.resource_id = resource_id
        self.last = last
        super().__init__(f"{resource_id} was still running after {timeout:g} s")
