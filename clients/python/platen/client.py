"""`Platen`: the machine API client of one workspace, holding one API key.

Renders are methods of the client itself (`render`, `render_async`, `render_and_wait`, `usage`,
`sign_render_url`); the other routes are grouped by resource: `templates`, `assets`, `renders`,
`batches`, `embeds`. Every call returns the API's JSON as plain dicts (typed in types.py) and
raises PlatenError (the API's error) or PlatenConnectionError (no answer).
"""
from __future__ import annotations

from datetime import datetime
from typing import Any, Mapping, Optional, Union, cast

from ._transport import Transport, segment
from ._util import compact
from .assets import Assets
from .batches import Batches
from .embeds import Embeds
from .renders import Renders, outcome, render_body
from .signing import sign_render_url
from .templates import Templates
from .types import RenderJob, RenderOutput, Usage


class Platen:
    """A client of the machine API (`/v1`), authenticated with an API key (`plt_…`).

    `timeout` is the socket timeout of each request, in seconds. `api_key` may be left out for the
    public calls alone (`embeds.info`, `sign_render_url`).
    """

    def __init__(self, base_url: str, api_key: Optional[str] = None, timeout: float = 30.0) -> None:
        self._transport = Transport(base_url, api_key, timeout)
        self.base_url = self._transport.base_url
        self.templates = Templates(self._transport)
        self.assets = Assets(self._transport)
        self.renders = Renders(self._transport)
        self.batches = Batches(self._transport)
        self.embeds = Embeds(self._transport)

    def __repr__(self) -> str:
        return f"Platen(base_url={self.base_url!r})"

    def _post_render(self, template_id: str, body: Mapping[str, Any]) -> Any:
        path = f"/v1/templates/{segment(template_id)}/render"
        return self._transport.call("POST", path, json_body=body)

    def render(
        self,
        template_id: str,
        format: str = "png",
        modifications: Optional[Mapping[str, str]] = None,
        *,
        page_id: Optional[str] = None,
        all_pages: bool = False,
        idempotency_key: Optional[str] = None,
        scale: Optional[float] = None,
        quality: Optional[int] = None,
        fps: Optional[int] = None,
        dither: Optional[bool] = None,
        time_ms: Optional[int] = None,
        version: Union[int, str, None] = None,
    ) -> RenderOutput:
        """Renders the template's draft and waits: a RenderResult (`{pages: [...]}` with `all_pages`
        for png/jpeg). One credit per file; an identical earlier request answers its result with
        `credits.charged` 0. `format` may be a video (mp4, webm, gif: one file, with `durationMs` and
        `frames`; `fps`, `dither`); `time_ms` picks the moment a still of an animated page shows.
        A video too long to wait for raises VALIDATION_FAILED: use `render_async` for it.
        """
        body = render_body(
            format, modifications, page_id, all_pages, idempotency_key, scale, quality, fps, dither, time_ms, version
        )
        return cast(RenderOutput, self._post_render(template_id, body))

    def render_async(
        self,
        template_id: str,
        format: str = "png",
        modifications: Optional[Mapping[str, str]] = None,
        *,
        page_id: Optional[str] = None,
        all_pages: bool = False,
        idempotency_key: Optional[str] = None,
        scale: Optional[float] = None,
        quality: Optional[int] = None,
        fps: Optional[int] = None,
        dither: Optional[bool] = None,
        time_ms: Optional[int] = None,
        version: Union[int, str, None] = None,
    ) -> RenderJob:
        """Accepts a background render (202): its state `{id, status, …, credits}`, charged at once.

        Follow it with `renders.wait(job["id"])`, or the `render.completed` / `render.failed` webhooks.
        """
        body = render_body(
            format, modifications, page_id, all_pages, idempotency_key, scale, quality, fps, dither, time_ms, version
        )
        body["async"] = True
        return cast(RenderJob, self._post_render(template_id, body))

    def render_and_wait(
        self,
        template_id: str,
        format: str = "png",
        modifications: Optional[Mapping[str, str]] = None,
        *,
        page_id: Optional[str] = None,
        all_pages: bool = False,
        idempotency_key: Optional[str] = None,
        scale: Optional[float] = None,
        quality: Optional[int] = None,
        fps: Optional[int] = None,
        dither: Optional[bool] = None,
        time_ms: Optional[int] = None,
        version: Union[int, str, None] = None,
        poll_interval: float = 0.5,
        timeout: Optional[float] = 120,
    ) -> RenderOutput:
        """A background render, polled until done: its result. A failed render raises PlatenError
        with its code (e.g. RENDER_FAILED, refunded); PlatenTimeoutError after `timeout` seconds.
        """
        job = self.render_async(
            template_id,
            format,
            modifications,
            page_id=page_id,
            all_pages=all_pages,
            idempotency_key=idempotency_key,
            scale=scale,
            quality=quality,
            fps=fps,
            dither=dither,
            time_ms=time_ms,
            version=version,
        )
        done = outcome(job)
        if done is not None:
            return done
        return self.renders.wait(job["id"], poll_interval=poll_interval, timeout=timeout)

    def usage(self, days: Optional[int] = None) -> Usage:
        """Finished renders and credits per UTC day, format and source, over the last `days` (1-366, 30)."""
        return cast(Usage, self._transport.call("GET", "/v1/usage", query=compact(days=days)))

    def sign_render_url(
        self,
        template_id: str,
        *,
        secret: str,
        format: str = "png",
        variables: Optional[Mapping[str, Any]] = None,
        options: Optional[Mapping[str, Any]] = None,
        expires_at: Union[datetime, int, float, None] = None,
    ) -> str:
        """`sign_render_url` with this client's base URL (signing is local: no request is made)."""
        return sign_render_url(
            base_url=self.base_url,
            template_id=template_id,
            secret=secret,
            format=format,
            variables=variables,
            options=options,
            expires_at=expires_at,
        )
