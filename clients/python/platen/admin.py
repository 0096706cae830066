"""`PlatenAdmin`: the operator API (`/admin/v1`), authenticated with `PLATEN_ADMIN_TOKEN`.

Workspaces, their credits and ledger, API keys, users and the audit log live here; embeds, webhooks
and URL-signing secrets in admin_integrations.py. Lists without paging return the items themselves;
the audit log pages as the machine API does (`{items, nextCursor}`, `all()` to walk it).
"""
from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional, Sequence, cast

from ._transport import Transport, segment
from ._util import compact, iterate_pages
from .admin_integrations import AdminEmbeds, AdminWebhooks, UrlSigningSecrets
from .types import (
    ApiKey,
    AuditEntry,
    AuditLogPage,
    CreditBalance,
    LedgerEntry,
    NewApiKey,
    OneTimeLink,
    User,
    Workspace,
)


class Workspaces:
    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def create(self, name: str, credits: Optional[int] = None) -> Workspace:
        body = compact(name=name, credits=credits)
        return cast(Workspace, self._transport.call("POST", "/admin/v1/workspaces", json_body=body))

    def list(self) -> List[Workspace]:
        return cast(List[Workspace], self._transport.call("GET", "/admin/v1/workspaces")["items"])

    def get(self, workspace_id: str) -> Workspace:
        return cast(Workspace, self._transport.call("GET", f"/admin/v1/workspaces/{segment(workspace_id)}"))

    def update(
        self, workspace_id: str, name: Optional[str] = None, suspended: Optional[bool] = None
    ) -> Workspace:
        """Renames, suspends (`suspended=True`) or reinstates a workspace."""
        path = f"/admin/v1/workspaces/{segment(workspace_id)}"
        body = compact(name=name, suspended=suspended)
        return cast(Workspace, self._transport.call("PATCH", path, json_body=body))


class Credits:
    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def adjust(self, workspace_id: str, amount: int, reason: Optional[str] = None) -> CreditBalance:
        """Grants (`amount` > 0) or withdraws (< 0) credits: `{creditBalance}`; never below 0 (CONFLICT)."""
        path = f"/admin/v1/workspaces/{segment(workspace_id)}/credits"
        body = compact(amount=amount, reason=reason)
        return cast(CreditBalance, self._transport.call("POST", path, json_body=body))


class Ledger:
    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def list(self, workspace_id: str) -> List[LedgerEntry]:
        """Every credit movement of the workspace (grants, renders, refunds) with the balance after it."""
        path = f"/admin/v1/workspaces/{segment(workspace_id)}/ledger"
        return cast(List[LedgerEntry], self._transport.call("GET", path)["items"])


class ApiKeys:
    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def create(self, workspace_id: str, scopes: Sequence[str], name: Optional[str] = None) -> NewApiKey:
        """A new key holding `scopes`; the answer's `key` (`plt_…`) is shown this once."""
        path = f"/admin/v1/workspaces/{segment(workspace_id)}/api-keys"
        body = compact(name=name, scopes=list(scopes))
        return cast(NewApiKey, self._transport.call("POST", path, json_body=body))

    def list(self, workspace_id: str) -> List[ApiKey]:
        """The workspace's keys, masked (`prefix`), with `lastUsedAt`."""
        path = f"/admin/v1/workspaces/{segment(workspace_id)}/api-keys"
        return cast(List[ApiKey], self._transport.call("GET", path)["items"])

    def revoke(self, key_id: str) -> None:
        """Revokes a key by its id (not the key itself); it stops working at once."""
        self._transport.call("DELETE", f"/admin/v1/api-keys/{segment(key_id)}")


class Users:
    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def create(
        self,
        email: str,
        password: str,
        workspace_ids: Sequence[str] = (),
        operator: Optional[bool] = None,
    ) -> User:
        """A person who signs in to the console: a member of `workspace_ids`, or an operator."""
        body = compact(email=email, password=password, workspaceIds=list(workspace_ids), operator=operator)
        return cast(User, self._transport.call("POST", "/admin/v1/users", json_body=body))

    def list(self) -> List[User]:
        return cast(List[User], self._transport.call("GET", "/admin/v1/users")["items"])

    def get(self, user_id: str) -> User:
        return cast(User, self._transport.call("GET", f"/admin/v1/users/{segment(user_id)}"))

    def update(
        self,
        user_id: str,
        disabled: Optional[bool] = None,
        operator: Optional[bool] = None,
        workspace_ids: Optional[Sequence[str]] = None,
    ) -> User:
        """Disable or enable, promote or demote, replace the workspaces; the person is signed out."""
        body = compact(
            disabled=disabled,
            operator=operator,
            workspaceIds=None if workspace_ids is None else list(workspace_ids),
        )
        path = f"/admin/v1/users/{segment(user_id)}"
        return cast(User, self._transport.call("PATCH", path, json_body=body))

    def delete(self, user_id: str) -> None:
        """Never the last enabled operator (CONFLICT)."""
        self._transport.call("DELETE", f"/admin/v1/users/{segment(user_id)}")

    def password_reset(self, user_id: str) -> OneTimeLink:
        """A one-time link (24 hours) where the person chooses a new password."""
        path = f"/admin/v1/users/{segment(user_id)}/password-reset"
        return cast(OneTimeLink, self._transport.call("POST", path))

    def unlock(self, user_id: str) -> None:
        """Forgets the account's failed sign-ins."""
        self._transport.call("POST", f"/admin/v1/users/{segment(user_id)}/unlock")

    def setup_link(self) -> OneTimeLink:
        """A new setup link while no operator exists (CONFLICT once one does)."""
        return cast(OneTimeLink, self._transport.call("POST", "/admin/v1/setup-link"))


class AuditLog:
    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def list(
        self,
        limit: Optional[int] = None,
        cursor: Optional[str] = None,
        workspace_id: Optional[str] = None,
        action: Optional[str] = None,
        user_id: Optional[str] = None,
    ) -> AuditLogPage:
        """Sensitive actions, newest first, filtered: `{items, nextCursor}`."""
        query = compact(limit=limit, cursor=cursor, workspaceId=workspace_id, action=action, userId=user_id)
        return cast(AuditLogPage, self._transport.call("GET", "/admin/v1/audit-log", query=query))

    def all(self, page_size: int = 100) -> Iterator[AuditEntry]:
        return iterate_pages(lambda cursor: cast(Dict[str, Any], self.list(limit=page_size, cursor=cursor)))


class PlatenAdmin:
    """A client of the operator API, authenticated with the operator token."""

    def __init__(self, base_url: str, admin_token: str, timeout: float = 30.0) -> None:
        self._transport = Transport(base_url, admin_token, timeout)
        self.base_url = self._transport.base_url
        self.workspaces = Workspaces(self._transport)
        self.credits = Credits(self._transport)
        self.ledger = Ledger(self._transport)
        self.api_keys = ApiKeys(self._transport)
        self.embeds = AdminEmbeds(self._transport)
        self.webhooks = AdminWebhooks(self._transport)
        self.url_signing_secrets = UrlSigningSecrets(self._transport)
        self.users = Users(self._transport)
        self.audit_log = AuditLog(self._transport)

    def __repr__(self) -> str:
        return f"PlatenAdmin(base_url={self.base_url!r})"
