"""`platen.assets`: images and fonts a design uses (`/v1/assets`).

Uploads send the file as the raw body; the service reads the type from the bytes (PNG, JPEG, WebP,
GIF, SVG; TTF, OTF, WOFF, WOFF2), never from `Content-Type`. An asset's `url` is a capability URL:
`download` fetches it without the API key.
"""
from __future__ import annotations

from typing import Any, Dict, Iterator, Mapping, Optional, Union, cast

from ._transport import Transport, segment
from ._util import compact, iterate_pages
from .types import Asset, AssetPage


class Assets:
    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def list(
        self, limit: Optional[int] = None, cursor: Optional[str] = None, kind: Optional[str] = None
    ) -> AssetPage:
        """One page, newest first: `{items, nextCursor}`; `kind` (image, font, video, audio) filters."""
        query = compact(limit=limit, cursor=cursor, kind=kind)
        return cast(AssetPage, self._transport.call("GET", "/v1/assets", query=query))

    def all(self, page_size: int = 100) -> Iterator[Asset]:
        """Every asset, fetching page after page as the iteration goes."""
        return iterate_pages(lambda cursor: cast(Dict[str, Any], self.list(limit=page_size, cursor=cursor)))

    def get(self, asset_id: str) -> Asset:
        return cast(Asset, self._transport.call("GET", f"/v1/assets/{segment(asset_id)}"))

    def upload(
        self,
        data: bytes,
        content_type: str = "application/octet-stream",
        family: Optional[str] = None,
    ) -> Asset:
        """Uploads an image, a font, a video (MP4, WebM) or audio (MP3, M4A, WAV). `family` names a
        font (needed for WOFF2, else read from the file).

        Use an image in a design as `asset:<id>`, a font by its family name, a video as a `video`
        element's `src`, an audio file as the document's `audio.src`.
        """
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError("data must be the file's bytes")
        answer = self._transport.call(
            "POST",
            "/v1/assets",
            query=compact(family=family),
            data=bytes(data),
            content_type=content_type or "application/octet-stream",
        )
        return cast(Asset, answer)

    def upload_from_url(self, url: str, family: Optional[str] = None) -> Asset:
        """Stores the file at a public URL, fetched by the service (https, never a private address)."""
        body = compact(url=url, family=family)
        return cast(Asset, self._transport.call("POST", "/v1/assets/from-url", json_body=body))

    def delete(self, asset_id: str) -> None:
        """Deletes the asset and its file (designs using it can no longer render it)."""
        self._transport.call("DELETE", f"/v1/assets/{segment(asset_id)}")

    def download(self, asset: Union[Mapping[str, Any], str]) -> bytes:
        """The file's bytes, for an asset record, an asset id, or its `url`."""
        if isinstance(asset, str):
            url = asset if asset.startswith(("http://", "https://", "/")) else self.get(asset)["url"]
        else:
            url = str(asset["url"])
        return self._transport.download(url)
