"""`platen.templates`: the template routes of the machine API (`/v1/templates`).

A template is a record plus its design document (docs/design-document.md). Saves carry `if_match`
(the revision read, or the `ETag` value) so a concurrent change answers 412 PRECONDITION_FAILED
instead of being overwritten.
"""
from __future__ import annotations

from typing import Any, Dict, Iterator, Mapping, Optional, Sequence, Union, cast

from ._transport import Transport, segment
from ._util import compact, iterate_pages
from .types import (
    Template,
    TemplateDiff,
    TemplatePage,
    TemplateVersionPage,
    TemplateVersionWithDocument,
    TemplateWithDocument,
)

# A version number, or "latest" (the last published); a diff side may also be "draft".
VersionRef = Union[int, str]


def if_match_header(if_match: Union[int, str, None]) -> Dict[str, str]:
    """`If-Match: "3"` for revision 3 (an int), or the given ETag string as it is."""
    if if_match is None:
        return {}
    if isinstance(if_match, bool):
        raise TypeError("if_match is a revision (int) or an ETag (str)")
    return {"If-Match": f'"{if_match}"' if isinstance(if_match, int) else str(if_match)}


class Templates:
    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def list(self, limit: Optional[int] = None, cursor: Optional[str] = None) -> TemplatePage:
        """One page, newest first: `{items, nextCursor}` (`limit` at most 100, default 20)."""
        query = compact(limit=limit, cursor=cursor)
        return cast(TemplatePage, self._transport.call("GET", "/v1/templates", query=query))

    def all(self, page_size: int = 100) -> Iterator[Template]:
        """Every template, newest first, fetching page after page as the iteration goes."""
        return iterate_pages(lambda cursor: cast(Dict[str, Any], self.list(limit=page_size, cursor=cursor)))

    def get(self, template_id: str) -> TemplateWithDocument:
        """The record and its `document`."""
        path = f"/v1/templates/{segment(template_id)}"
        return cast(TemplateWithDocument, self._transport.call("GET", path))

    def create(
        self,
        name: str,
        document: Optional[Mapping[str, Any]] = None,
        *,
        width: Optional[int] = None,
        height: Optional[int] = None,
        shared: Optional[bool] = None,
    ) -> TemplateWithDocument:
        """A new template from a design `document`, or a blank page of `width` × `height`."""
        body = compact(name=name, document=document, width=width, height=height, shared=shared)
        return cast(TemplateWithDocument, self._transport.call("POST", "/v1/templates", json_body=body))

    def save(
        self,
        template_id: str,
        document: Mapping[str, Any],
        name: Optional[str] = None,
        if_match: Union[int, str, None] = None,
    ) -> TemplateWithDocument:
        """Saves the draft document (the revision goes up by one).

        With `if_match` (the revision you read, e.g. `template["revision"]`) a template changed in
        the meantime raises PlatenError PRECONDITION_FAILED and nothing is overwritten.
        """
        path = f"/v1/templates/{segment(template_id)}"
        body = compact(document=document, name=name)
        answer = self._transport.call("PUT", path, json_body=body, headers=if_match_header(if_match))
        return cast(TemplateWithDocument, answer)

    def update(
        self, template_id: str, name: Optional[str] = None, shared: Optional[bool] = None
    ) -> TemplateWithDocument:
        """Renames or (un)shares a template: metadata only, the revision stays."""
        path = f"/v1/templates/{segment(template_id)}"
        body = compact(name=name, shared=shared)
        return cast(TemplateWithDocument, self._transport.call("PATCH", path, json_body=body))

    def delete(self, template_id: str) -> None:
        self._transport.call("DELETE", f"/v1/templates/{segment(template_id)}")

    # Versions (docs/versions.md)

    def publish(self, template_id: str, note: Optional[str] = None) -> TemplateVersionWithDocument:
        """Publishes the draft as the next version; an unchanged draft answers the existing one."""
        path = f"/v1/templates/{segment(template_id)}/versions"
        answer = self._transport.call("POST", path, json_body=compact(note=note))
        return cast(TemplateVersionWithDocument, answer)

    def versions(
        self, template_id: str, limit: Optional[int] = None, cursor: Optional[str] = None
    ) -> TemplateVersionPage:
        """One page of published versions, newest first."""
        path = f"/v1/templates/{segment(template_id)}/versions"
        query = compact(limit=limit, cursor=cursor)
        return cast(TemplateVersionPage, self._transport.call("GET", path, query=query))

    def version(self, template_id: str, version: VersionRef) -> TemplateVersionWithDocument:
        """One version with its document: a number, or "latest"."""
        path = f"/v1/templates/{segment(template_id)}/versions/{segment(str(version))}"
        return cast(TemplateVersionWithDocument, self._transport.call("GET", path))

    def rollback(
        self, template_id: str, version: VersionRef, if_match: Union[int, str, None] = None
    ) -> TemplateWithDocument:
        """Makes the draft a copy of `version` (its revision goes up by one)."""
        path = f"/v1/templates/{segment(template_id)}/versions/{segment(str(version))}/rollback"
        answer = self._transport.call("POST", path, headers=if_match_header(if_match))
        return cast(TemplateWithDocument, answer)

    def diff(
        self, template_id: str, from_: Optional[VersionRef] = None, to: Optional[VersionRef] = None
    ) -> TemplateDiff:
        """What changed, element by element (default: from "latest" to "draft")."""
        path = f"/v1/templates/{segment(template_id)}/diff"
        query = compact(**{"from": None if from_ is None else str(from_), "to": None if to is None else str(to)})
        return cast(TemplateDiff, self._transport.call("GET", path, query=query))

    def variables(self, template_id: str, version: Optional[VersionRef] = None) -> Dict[str, Any]:
        """Every `modifications` key the draft (or `version`) takes: kind, default and the boxes it fills."""
        path = f"/v1/templates/{segment(template_id)}/variables"
        query = compact(version=None if version is None else str(version))
        return cast(Dict[str, Any], self._transport.call("GET", path, query=query))

    def preview(
        self,
        template_id: str,
        modifications: Optional[Mapping[str, str]] = None,
        format: str = "png",
        page_id: Optional[str] = None,
        version: Optional[VersionRef] = None,
    ) -> bytes:
        """A free preview of one page: at most 512 px long, watermarked PREVIEW (PNG or JPEG bytes)."""
        path = f"/v1/templates/{segment(template_id)}/preview"
        body = compact(
            format=format,
            modifications=dict(modifications) if modifications is not None else None,
            pageId=page_id,
            version=version,
        )
        accept = "image/jpeg" if format == "jpeg" else "image/png"
        return self._transport.request("POST", path, json_body=body, headers={"Accept": accept}).body

    def preflight(
        self,
        template_id: str,
        modifications: Optional[Mapping[str, str]] = None,
        rows: Optional[Sequence[Mapping[str, str]]] = None,
        format: str = "png",
        page_id: Optional[str] = None,
        version: Optional[VersionRef] = None,
    ) -> Dict[str, Any]:
        """What a render would get wrong, free: findings for `modifications`, or for up to 1,000 sample `rows`."""
        path = f"/v1/templates/{segment(template_id)}/preflight"
        body = compact(
            format=format,
            modifications=dict(modifications) if modifications is not None else None,
            rows=[dict(row) for row in rows] if rows is not None else None,
            pageId=page_id,
            version=version,
        )
        return cast(Dict[str, Any], self._transport.call("POST", path, json_body=body))

    def diff_image(
        self,
        template_id: str,
        from_: Optional[VersionRef] = None,
        to: Optional[VersionRef] = None,
        page_id: Optional[str] = None,
    ) -> bytes:
        """A PNG of one page: the newer side faded, its changed pixels in magenta."""
        path = f"/v1/templates/{segment(template_id)}/diff.png"
        query = compact(
            **{"from": None if from_ is None else str(from_), "to": None if to is None else str(to), "pageId": page_id}
        )
        return self._transport.request("GET", path, query=query, headers={"Accept": "image/png"}).body
