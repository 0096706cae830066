"""Small helpers the resources share: leaving out unset fields, walking cursor pages, polling."""
from __future__ import annotations

import time
from typing import Any, Callable, Dict, Iterator, Optional, TypeVar

from .errors import PlatenTimeoutError

T = TypeVar("T")


def compact(**fields: Any) -> Dict[str, Any]:
    """The fields that are not None (the API's optional fields are left out, not sent as null)."""
    return {name: value for name, value in fields.items() if value is not None}


def iterate_pages(fetch: Callable[[Optional[str]], Dict[str, Any]]) -> Iterator[Any]:
    """Every item of a `{items, nextCursor}` listing, fetching the next page only when needed."""
    cursor: Optional[str] = None
    # A cursor seen before would loop for ever (a broken or hostile server): stop there instead.
    seen = set()
    while True:
        page = fetch(cursor)
        yield from page["items"]
        cursor = page.get("nextCursor")
        if not cursor:
            return
        if cursor in seen:
            raise RuntimeError(f"the server repeated the page cursor {cursor}")
        seen.add(cursor)


def poll(
    resource_id: str,
    fetch: Callable[[], T],
    finished: Callable[[T], bool],
    poll_interval: float,
    timeout: Optional[float],
) -> T:
    """`fetch()` until `finished` says so; PlatenTimeoutError once `timeout` seconds have passed."""
    if poll_interval <= 0:
        raise ValueError("poll_interval must be positive")
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        state = fetch()
        if finished(state):
            return state
        if deadline is not None:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise PlatenTimeoutError(resource_id, float(timeout or 0), state)
            time.sleep(min(poll_interval, remaining))
        else:
            time.sleep(poll_interval)
