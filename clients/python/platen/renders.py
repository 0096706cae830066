"""Rendering: the render request body, `platen.renders` (`/v1/renders`) and waiting for a
background render.

`GET /v1/renders/{id}` answers a finished render's result (no `status` field), or, for a background
render, its state: `pending`, `failed` (refunded, with `error: {code, details}`), or `done` with the
`result` (the `{pages}` of an `allPages` render). `wait` turns that into the result or a PlatenError
carrying the failure's code, as the render route would have raised it.
"""
from __future__ import annotations

from typing import Any, Dict, Iterator, Mapping, Optional, Sequence, Union, cast

from ._transport import Transport, segment
from ._util import compact, iterate_pages, poll
from .errors import CODE_STATUS, PlatenError
from .types import RenderOutput, RenderPage, RenderSummary


def render_body(
    format: str,
    modifications: Optional[Mapping[str, str]],
    page_id: Optional[str],
    all_pages: Optional[bool],
    idempotency_key: Optional[str],
    scale: Optional[float],
    quality: Optional[int],
    fps: Optional[int] = None,
    dither: Optional[bool] = None,
    time_ms: Optional[int] = None,
    version: Union[int, str, None] = None,
) -> Dict[str, Any]:
    """The JSON body of `POST /v1/templates/{id}/render` (unset options left to the service).

    `fps` and `dither` apply to the video formats (mp4, webm, gif), `time_ms` to stills of an
    animated page (png, jpeg, pdf). `version` renders a published version (a number, or "latest")
    instead of the draft (docs/versions.md).
    """
    return compact(
        format=format,
        modifications=dict(modifications) if modifications is not None else None,
        pageId=page_id,
        allPages=all_pages or None,
        idempotencyKey=idempotency_key,
        scale=scale,
        quality=quality,
        fps=fps,
        dither=dither,
        timeMs=time_ms,
        version=version,
    )


def failure(render_id: str, error: Any) -> PlatenError:
    """The PlatenError a failed background render stands for (its code, the status it would have had)."""
    code = str(error.get("code", "RENDER_FAILED")) if isinstance(error, dict) else "RENDER_FAILED"
    details = error.get("details") if isinstance(error, dict) else None
    message = f"render {render_id} failed"
    if isinstance(details, dict) and isinstance(details.get("message"), str):
        message += f": {details['message']}"
    elif isinstance(details, list) and details and isinstance(details[0], dict) and "message" in details[0]:
        first = details[0]
        message += f": {first.get('path', '')} {first['message']}".rstrip()
    return PlatenError(CODE_STATUS.get(code, 422), code, message, None, details)


def outcome(state: Mapping[str, Any]) -> Optional[RenderOutput]:
    """The result a render answer holds; None while pending; PlatenError when it failed."""
    status = state.get("status")
    if status is None:  # a finished render's result itself
        return cast(RenderOutput, dict(state))
    if status == "done":
        return cast(RenderOutput, state["result"])
    if status == "failed":
        raise failure(str(state.get("id")), state.get("error"))
    return None


class Renders:
    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def estimate(
        self,
        template_id: str,
        format: str = "png",
        modifications: Optional[Mapping[str, str]] = None,
        rows: Optional[Sequence[Mapping[str, str]]] = None,
        page_id: Optional[str] = None,
        all_pages: Optional[bool] = None,
        version: Union[int, str, None] = None,
    ) -> Dict[str, Any]:
        """What a render, or `rows` of renders as a batch takes them, would cost now, charging nothing.

        Answers `{renders, files, credits, identical, balance, enough}`: identical renders are free.
        """
        body = render_body(format, modifications, page_id, all_pages, None, None, None, version=version)
        if rows is not None:
            body["rows"] = [dict(row) for row in rows]
        path = f"/v1/templates/{segment(template_id)}/estimate"
        return cast(Dict[str, Any], self._transport.call("POST", path, json_body=body))

    def signed_url(
        self,
        template_id: str,
        format: str = "png",
        modifications: Optional[Mapping[str, str]] = None,
        expires_in_seconds: Optional[int] = None,
        page_id: Optional[str] = None,
        scale: Optional[float] = None,
        quality: Optional[int] = None,
        version: Union[int, str, None] = None,
    ) -> Dict[str, Any]:
        """A render URL signed by the service with the workspace's newest URL-signing secret.

        Needs `render:write` and is audited; `{url, secretId, expiresAt}`. To sign with the secret in
        your own backend, use `sign_render_url`.
        """
        body = render_body(format, modifications, page_id, None, None, scale, quality, version=version)
        if expires_in_seconds is not None:
            body["expiresInSeconds"] = expires_in_seconds
        path = f"/v1/templates/{segment(template_id)}/signed-url"
        return cast(Dict[str, Any], self._transport.call("POST", path, json_body=body))

    def get(self, render_id: str) -> Dict[str, Any]:
        """A render's result as first returned (`credits.charged` 0), or a background render's state."""
        return cast(Dict[str, Any], self._transport.call("GET", f"/v1/renders/{segment(render_id)}"))

    def list(self, limit: Optional[int] = None, cursor: Optional[str] = None) -> RenderPage:
        """Recent renders, newest first: `{items, nextCursor}` (an identical repeat is listed once)."""
        query = compact(limit=limit, cursor=cursor)
        return cast(RenderPage, self._transport.call("GET", "/v1/renders", query=query))

    def all(self, page_size: int = 100) -> Iterator[RenderSummary]:
        return iterate_pages(lambda cursor: cast(Dict[str, Any], self.list(limit=page_size, cursor=cursor)))

    def wait(
        self, render_id: str, poll_interval: float = 0.5, timeout: Optional[float] = 120
    ) -> RenderOutput:
        """Polls a background render until it is done: its result, or PlatenError with the failure's code.

        PlatenTimeoutError (a TimeoutError) when it is still pending after `timeout` seconds.
        """
        state = poll(
            render_id,
            lambda: self.get(render_id),
            lambda answer: outcome(answer) is not None,
            poll_interval,
            timeout,
        )
        return cast(RenderOutput, outcome(state))
