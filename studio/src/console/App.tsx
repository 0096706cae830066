/**
 * The console shell: loads the session (or sends the person to sign in), then a header with the
 * workspace switcher, a navigation of screens, and the screen the URL names. Operators also get
 * Workspaces, Users and the audit log. Members see only their workspaces; any other id answers 404,
 * and an operator screen opened by its address tells them it is for operators only.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError, call, consoleApi, type Session, setCsrf, type Workspace } from './client.ts';
import { go, type Route, useRoute, workspaceHref } from './router.ts';
import { AssetsScreen } from './screens/Assets.tsx';
import { AuditScreen } from './screens/Audit.tsx';
import { EmbedsScreen } from './screens/Embeds.tsx';
import { HistoryScreen } from './screens/History.tsx';
import { KeysScreen } from './screens/Keys.tsx';
import { RendersScreen } from './screens/Renders.tsx';
import { RenderTestScreen } from './screens/RenderTest.tsx';
import { StudioScreen } from './screens/Studio.tsx';
import { TemplatesScreen } from './screens/Templates.tsx';
import { UsageScreen } from './screens/Usage.tsx';
import { UsersScreen } from './screens/Users.tsx';
import { WebhooksScreen } from './screens/Webhooks.tsx';
import { WorkspacesScreen } from './screens/Workspaces.tsx';
import { ErrorNote, Loading, RefreshWorkspace, useLoad } from './ui.tsx';

const WORKSPACE_SCREENS = [
  ['templates', 'Templates'],
  ['renders', 'Renders'],
  ['assets', 'Assets'],
  ['embeds', 'Embeds'],
  ['webhooks', 'Webhooks'],
  ['keys', 'API keys'],
  ['usage', 'Usage'],
] as const;

const OPERATOR_SCREENS = [
  ['workspaces', 'Workspaces'],
  ['users', 'Users'],
  ['audit', 'Audit log'],
] as const;

export function App() {
  const route = useRoute();
  const [session, setSession] = useState<Session | null>(null);
  const [error, setError] = useState<unknown>(null);

  const loadSession = () =>
    call<Session>('GET', '/console/api/session').then(
      (value) => {
        setCsrf(value.csrfToken);
        setSession(value);
      },
      (caught: unknown) => {
        if (caught instanceof ApiError && caught.status === 401)
          window.location.assign(`/oauth/signin?next=${encodeURIComponent('/console/')}`);
        else setError(caught);
      },
    );
  useEffect(() => {
    void loadSession();
  }, []);

  useEffect(() => {
    if (!session || route.workspaceId || route.screen) return;
    const first = session.workspaces[0];
    // A member without a workspace stays on `#/`, which says so.
    if (session.user.operator) go('#/workspaces');
    else if (first) go(workspaceHref(first.id, 'templates'));
  }, [session, route]);

  if (error) return <ErrorNote error={error} />;
  if (!session) return <Loading what="the console" />;
  return <Shell session={session} route={route} refresh={() => void loadSession()} />;
}

function Shell({ session, route, refresh }: { session: Session; route: Route; refresh(): void }) {
  const workspaceId = route.workspaceId ?? session.workspaces[0]?.id ?? null;
  const signOut = async () => {
    await call('POST', '/console/api/sign-out').catch(() => undefined);
    window.location.assign('/oauth/signin?next=%2Fconsole%2F');
  };
  return (
    <div class="console">
      <header class="console-header">
        <a class="console-brand" href="#/">
          Platen
        </a>
        {session.workspaces.length > 0 && (
          <label class="console-switch">
            <span>Workspace</span>
            <select
              value={workspaceId ?? ''}
              onChange={(event) =>
                go(workspaceHref(event.currentTarget.value, route.workspaceId ? route.screen : 'templates'))
              }
            >
              {session.workspaces.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <span class="console-user">
          {session.user.email}
          {session.user.operator ? ' (operator)' : ''}
        </span>
        <button type="button" onClick={signOut}>
          Sign out
        </button>
      </header>
      <nav class="console-nav" aria-label="Screens">
        {workspaceId &&
          WORKSPACE_SCREENS.map(([screen, label]) => (
            <a
              key={screen}
              href={workspaceHref(workspaceId, screen)}
              aria-current={route.workspaceId && route.screen === screen ? 'page' : undefined}
            >
              {label}
            </a>
          ))}
        {session.user.operator &&
          OPERATOR_SCREENS.map(([screen, label]) => (
            <a
              key={screen}
              href={`#/${screen}`}
              aria-current={route.screen === screen && !route.workspaceId ? 'page' : undefined}
            >
              {label}
            </a>
          ))}
      </nav>
      <main class="console-main">
        <Screen session={session} route={route} refresh={refresh} />
      </main>
    </div>
  );
}

function Screen({ session, route, refresh }: { session: Session; route: Route; refresh(): void }) {
  const ws = route.workspaceId;
  if (!ws) {
    if (session.user.operator && route.screen === 'workspaces')
      return <WorkspacesScreen onChange={refresh} />;
    if (session.user.operator && route.screen === 'users')
      return <UsersScreen me={session.user.id} onSelfChange={refresh} />;
    if (session.user.operator && route.screen === 'audit') return <AuditScreen />;
    if (OPERATOR_SCREENS.some(([screen]) => screen === route.screen))
      return <OperatorsOnly session={session} />;
    if (route.screen) return <NoSuchScreen session={session} />;
    if (!session.workspaces.length) return <p>You are not a member of any workspace yet. Ask an operator.</p>;
    // `#/`: on the way to the first screen.
    return <Loading what="the console" />;
  }
  return (
    <WorkspaceFrame key={ws} workspaceId={ws} screen={route.screen}>
      <WorkspaceScreen route={route} workspaceId={ws} />
    </WorkspaceFrame>
  );
}

/** Where "back" goes: the first workspace's templates, or the start (which says what there is). */
function homeOf(session: Session): { href: string; label: string } {
  if (session.user.operator) return { href: '#/workspaces', label: 'Go to Workspaces' };
  const first = session.workspaces[0];
  return first
    ? { href: workspaceHref(first.id, 'templates'), label: `Go to the templates of ${first.name}` }
    : { href: '#/', label: 'Go to the start' };
}

/** An operator screen (Workspaces, Users, Audit log) opened by its address by a member. */
function OperatorsOnly({ session }: { session: Session }) {
  const home = homeOf(session);
  return (
    <section aria-labelledby="operators-only-title">
      <h1 id="operators-only-title">Only operators can see this page</h1>
      <p>
        You are signed in as {session.user.email}, a member. Workspaces, users and the audit log are managed
        by operators: ask one if you need a change there.
      </p>
      <a class="console-button" href={home.href}>
        {home.label}
      </a>
    </section>
  );
}

function NoSuchScreen({ session }: { session: Session }) {
  const home = homeOf(session);
  return (
    <section aria-labelledby="no-screen-title">
      <h1 id="no-screen-title">No such page</h1>
      <p>The address names no page of the console.</p>
      <a class="console-button" href={home.href}>
        {home.label}
      </a>
    </section>
  );
}

/** The workspace the URL names, with its balance; 404 (and nothing else) when it is not the person's. */
function WorkspaceFrame(props: { workspaceId: string; screen: string; children: ComponentChildren }) {
  const { workspaceId, children } = props;
  // Read again on every screen change, so the balance follows renders and grants.
  const workspace = useLoad(
    () => call<Workspace>('GET', consoleApi(workspaceId)),
    `${workspaceId}/${props.screen}`,
  );
  if (workspace.error)
    return (
      <section aria-labelledby="missing-title">
        <h1 id="missing-title">Workspace not found</h1>
        <ErrorNote error={workspace.error} />
      </section>
    );
  if (!workspace.data) return <Loading what="the workspace" />;
  const w = workspace.data;
  return (
    <RefreshWorkspace.Provider value={workspace.reload}>
      <p class="console-workspace-line">
        <strong>{w.name}</strong> · <span data-testid="balance">{w.creditBalance}</span> credits ·{' '}
        <span class={w.suspended ? 'console-bad' : 'console-ok'}>{w.suspended ? 'suspended' : 'active'}</span>
      </p>
      {children}
    </RefreshWorkspace.Provider>
  );
}

function WorkspaceScreen({ route, workspaceId: ws }: { route: Route; workspaceId: string }) {
  const key = `${ws}:${route.id ?? ''}`;
  switch (route.screen) {
    case 'templates':
      return <TemplatesScreen key={key} workspaceId={ws} />;
    case 'studio':
      return <StudioScreen key={key} workspaceId={ws} templateId={route.id} />;
    case 'history':
      return <HistoryScreen key={key} workspaceId={ws} templateId={route.id ?? ''} />;
    case 'render':
      return <RenderTestScreen key={key} workspaceId={ws} templateId={route.id ?? ''} />;
    case 'renders':
      return <RendersScreen key={key} workspaceId={ws} />;
    case 'assets':
      return <AssetsScreen key={key} workspaceId={ws} />;
    case 'embeds':
      return <EmbedsScreen key={key} workspaceId={ws} />;
    case 'webhooks':
      return <WebhooksScreen key={key} workspaceId={ws} />;
    case 'keys':
      return <KeysScreen key={key} workspaceId={ws} />;
    case 'usage':
      return <UsageScreen key={key} workspaceId={ws} />;
    default:
      return <ErrorNote error={new ApiError(404, 'NOT_FOUND', 'No such screen.')} />;
  }
}
