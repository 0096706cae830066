/** The console's screens live in the URL's fragment (`#/w/<workspace>/<screen>/<id>`): one page, deep links. */
import { useEffect, useState } from 'preact/hooks';

export interface Route {
  /** `workspaces`, `users`, `audit`, or a workspace screen. */
  screen: string;
  workspaceId: string | null;
  id: string | null;
}

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] === 'w' && parts[1])
    return { workspaceId: parts[1], screen: parts[2] ?? 'templates', id: parts[3] ?? null };
  return { workspaceId: null, screen: parts[0] ?? '', id: null };
}

export const workspaceHref = (workspaceId: string, screen: string, id?: string) =>
  `#/w/${encodeURIComponent(workspaceId)}/${screen}${id ? `/${encodeURIComponent(id)}` : ''}`;

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const update = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return route;
}

export const go = (href: string) => {
  window.location.hash = href.replace(/^#/, '');
};
