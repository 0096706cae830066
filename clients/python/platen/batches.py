"""`platen.batches`: one template rendered once per row of variables, in the background.

Rows come as a list of `{variable: value}` dicts (JSON) or as CSV text whose header names the
variables (sent as `text/csv`, the options in the query). A bad row fails alone; a batch the balance
cannot pay in full raises INSUFFICIENT_CREDITS and nothing is charged. `wait` polls until no row is
pending; `download_zip` gives the ZIP of the done rows' files and `manifest.json`.
"""
from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Sequence, Union, cast

from ._transport import Transport, segment
from ._util import compact, poll
from .types import Batch


def _options(
    format: str,
    scale: Optional[float],
    quality: Optional[int],
    page_id: Optional[str],
    all_pages: Optional[bool],
    fps: Optional[int] = None,
    dither: Optional[bool] = None,
    time_ms: Optional[int] = None,
) -> Dict[str, Any]:
    return compact(
        format=format,
        scale=scale,
        quality=quality,
        pageId=page_id,
        allPages=all_pages,
        fps=fps,
        dither=dither,
        timeMs=time_ms,
    )


class Batches:
    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def create(
        self,
        template_id: str,
        rows: Sequence[Mapping[str, str]],
        format: str = "png",
        *,
        scale: Optional[float] = None,
        quality: Optional[int] = None,
        page_id: Optional[str] = None,
        all_pages: Optional[bool] = None,
        fps: Optional[int] = None,
        dither: Optional[bool] = None,
        time_ms: Optional[int] = None,
    ) -> Batch:
        """Starts a batch of one render per row (at most 1000 rows); 201 with the batch, rows pending."""
        body = _options(format, scale, quality, page_id, all_pages, fps, dither, time_ms)
        body["rows"] = [dict(row) for row in rows]
        path = f"/v1/templates/{segment(template_id)}/batches"
        return cast(Batch, self._transport.call("POST", path, json_body=body))

    def create_from_csv(
        self,
        template_id: str,
        csv_text: Union[str, bytes],
        format: str = "png",
        *,
        scale: Optional[float] = None,
        quality: Optional[int] = None,
        page_id: Optional[str] = None,
        all_pages: Optional[bool] = None,
        fps: Optional[int] = None,
        dither: Optional[bool] = None,
        time_ms: Optional[int] = None,
    ) -> Batch:
        """Starts a batch from CSV (RFC 4180; the header line names the variables; at most 2 MB)."""
        data = csv_text.encode("utf-8") if isinstance(csv_text, str) else bytes(csv_text)
        path = f"/v1/templates/{segment(template_id)}/batches/csv"
        answer = self._transport.call(
            "POST",
            path,
            query=_options(format, scale, quality, page_id, all_pages, fps, dither, time_ms),
            data=data,
            content_type="text/csv; charset=utf-8",
        )
        return cast(Batch, answer)

    def get(self, batch_id: str) -> Batch:
        """The batch with its progress and per-row manifest (`url`, `urls` or `error`)."""
        return cast(Batch, self._transport.call("GET", f"/v1/batches/{segment(batch_id)}"))

    def cancel(self, batch_id: str) -> Batch:
        """Cancels a running batch; rows not rendered yet are refunded (CONFLICT when not running)."""
        return cast(Batch, self._transport.call("POST", f"/v1/batches/{segment(batch_id)}/cancel"))

    def wait(self, batch_id: str, poll_interval: float = 0.5, timeout: Optional[float] = 300) -> Batch:
        """Polls until the batch is `completed` or `cancelled` and returns it (failed rows included).

        PlatenTimeoutError (a TimeoutError) when it is still running after `timeout` seconds.
        """
        return poll(
            batch_id,
            lambda: self.get(batch_id),
            lambda batch: batch["status"] != "running",
            poll_interval,
            timeout,
        )

    def download_zip(self, batch_id: str) -> bytes:
        """The ZIP: `manifest.json` and `row-<n>.<ext>` (or `row-<n>-page-<k>.<ext>`) per done row."""
        path = f"/v1/batches/{segment(batch_id)}/files.zip"
        return self._transport.request("GET", path, headers={"Accept": "application/zip"}).body
