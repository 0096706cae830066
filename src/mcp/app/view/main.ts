/**
 * The MCP App's view: the template's picture, its variables as a form, and two actions. Every
 * action is a tools/call through the host (`app.callServerTool`), so the host shows and gates it
 * and the server applies the token's scopes as for any call:
 * - an edit asks preview_template (free, watermarked, at most 512 px) after a short pause;
 * - "Render" asks render_template (one credit per file; an identical render is free);
 * - "Open in studio" asks get_workspace for the workspace id, then the host to open the console's
 *   studio for the template (`app.openLink`: the sandbox cannot navigate itself).
 */
import { App, applyDocumentTheme, applyHostStyleVariables } from '@modelcontextprotocol/ext-apps';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { modificationsOf, type TemplateVariable, variablesForm, variablesOf } from './form.ts';
import { STYLES } from './styles.ts';
import {
  creditsOf,
  failureOf,
  failureOfThrown,
  imageSourceOf,
  jsonOf,
  type ToolFailure,
} from './tool-results.ts';

/** How long an edit waits for the next before it asks for a preview (each takes a rate-limit token). */
const PREVIEW_DELAY_MS = 400;

interface AppConfig {
  baseUrl: string;
}

function readConfig(): AppConfig {
  const text = document.getElementById('platen-app-config')?.textContent ?? '{}';
  const parsed = JSON.parse(text) as Partial<AppConfig>;
  return { baseUrl: typeof parsed.baseUrl === 'string' ? parsed.baseUrl : '' };
}

const config = readConfig();
const app = new App({ name: 'Platen template', version: '1.0.0' }, {}, { autoResize: true });

const state = {
  templateId: null as string | null,
  templateName: null as string | null,
  variables: [] as TemplateVariable[],
  initialValues: {} as Record<string, string>,
  hasImage: false,
  /** Answers to older requests are dropped: only the newest picture is shown. */
  imageRequest: 0,
  /**
   * The values the newest picture was asked for. A preview of the same values is not asked again:
   * a field's `change` follows its `input` when it loses the focus (to the Render button, say), and
   * that preview would otherwise drop the render it was clicked for.
   */
  imageFor: null as string | null,
  previewTimer: 0 as ReturnType<typeof setTimeout> | 0,
};

const root = document.getElementById('platen-app') as HTMLElement;
const style = document.createElement('style');
style.textContent = STYLES;
document.head.append(style);

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

const title = element('h1');
const openStudio = element('button', { type: 'button', id: 'open-studio', textContent: 'Open in studio' });
const picture = element('img', { id: 'picture', alt: 'The rendered template' });
const caption = element('figcaption', { id: 'caption' });
const formSlot = element('form', { id: 'variables' });
const renderButton = element('button', {
  type: 'button',
  id: 'render',
  className: 'primary',
  textContent: 'Render (1 credit)',
  title: 'Renders a PNG: one credit; a render identical to an earlier one is free.',
});
const errorBox = element('p', { id: 'error', className: 'error' });
errorBox.setAttribute('role', 'alert');
const layout = element(
  'div',
  { className: 'layout' },
  element('figure', {}, picture, caption),
  element('div', {}, formSlot, element('div', { className: 'actions' }, renderButton)),
);

function showFrame(): void {
  if (root.dataset.ready) return;
  root.dataset.ready = 'true';
  root.replaceChildren(element('header', {}, title, openStudio), layout, errorBox);
}

function showTitle(): void {
  title.textContent = state.templateName ?? state.templateId ?? 'Template';
}

function showError(failure: ToolFailure | null): void {
  errorBox.textContent = failure ? `${failure.code}: ${failure.message}` : '';
}

function showPicture(source: string, text: string): void {
  state.hasImage = true;
  picture.src = source;
  caption.textContent = text;
}

/** A tools/call through the host; a refusal (thrown, or `isError`) comes back as a failure. */
async function callTool(
  name: string,
  args: Record<string, unknown>,
): Promise<{ result: CallToolResult } | { failure: ToolFailure }> {
  try {
    const result = await app.callServerTool({ name, arguments: args });
    const failure = failureOf(result);
    return failure ? { failure } : { result };
  } catch (error) {
    return { failure: failureOfThrown(error) };
  }
}

function currentModifications(): Record<string, string> {
  return modificationsOf(formSlot, state.variables);
}

async function showImageFrom(
  tool: 'preview_template' | 'render_template',
  args: { modifications: Record<string, string> } & Record<string, unknown>,
) {
  const request = ++state.imageRequest;
  state.imageFor = JSON.stringify(args.modifications);
  const answer = await callTool(tool, args);
  if (request !== state.imageRequest) return;
  if ('failure' in answer) {
    // Nothing new is shown: the same values may be asked again.
    state.imageFor = null;
    showError(answer.failure);
    return;
  }
  showError(null);
  const source = imageSourceOf(answer.result);
  if (!source) {
    caption.textContent = 'This render is not an image the view can show.';
    return;
  }
  const credits = creditsOf(answer.result);
  showPicture(
    source,
    tool === 'preview_template'
      ? 'Preview: free, watermarked. Render for the final file.'
      : credits
        ? `Rendered: ${credits.charged} credit${credits.charged === 1 ? '' : 's'} (balance ${credits.balanceAfter}).`
        : 'Rendered.',
  );
}

function preview(): Promise<void> {
  if (!state.templateId) return Promise.resolve();
  const modifications = currentModifications();
  if (state.hasImage && JSON.stringify(modifications) === state.imageFor) return Promise.resolve();
  return showImageFrom('preview_template', { templateId: state.templateId, modifications });
}

function previewSoon(): void {
  if (state.previewTimer) clearTimeout(state.previewTimer);
  state.previewTimer = setTimeout(() => {
    state.previewTimer = 0;
    void preview();
  }, PREVIEW_DELAY_MS);
}

async function loadVariables(templateId: string): Promise<void> {
  const answer = await callTool('get_template_variables', { templateId });
  if (templateId !== state.templateId) return;
  if ('failure' in answer) {
    showError(answer.failure);
    return;
  }
  state.variables = variablesOf(jsonOf(answer.result));
  formSlot.replaceChildren(variablesForm(state.variables, state.initialValues, previewSoon));
  if (!state.hasImage) await preview();
}

function useTemplate(templateId: string, modifications: Record<string, string> = {}): void {
  if (templateId === state.templateId) return;
  state.templateId = templateId;
  state.initialValues = modifications;
  showFrame();
  showTitle();
  caption.textContent = 'Loading…';
  void loadVariables(templateId);
}

const stringRecord = (value: unknown): Record<string, string> =>
  typeof value === 'object' && value !== null
    ? Object.fromEntries(
        Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
      )
    : {};

// The arguments the agent called render_template or get_template with.
app.ontoolinput = ({ arguments: args }) => {
  if (typeof args?.templateId === 'string') useTemplate(args.templateId, stringRecord(args.modifications));
};

// Its result: a render's picture, or a template's record (its name; the picture is then a preview).
app.ontoolresult = (result) => {
  showFrame();
  const failure = failureOf(result);
  if (failure) {
    showError(failure);
    return;
  }
  const body = jsonOf(result) as {
    id?: unknown;
    templateId?: unknown;
    name?: unknown;
    document?: unknown;
  } | null;
  if (body && typeof body.name === 'string' && body.document !== undefined) {
    state.templateName = body.name;
    if (typeof body.id === 'string') useTemplate(body.id);
  } else if (body && typeof body.templateId === 'string') useTemplate(body.templateId);
  showTitle();
  const source = imageSourceOf(result);
  if (source) showPicture(source, 'Rendered by the agent.');
};

app.onhostcontextchanged = (context) => applyHostContext(context);

/** The host's theme and style variables (its `McpUiHostContext`), when it sends them. */
function applyHostContext(context: ReturnType<App['getHostContext']>): void {
  if (context?.theme) applyDocumentTheme(context.theme);
  if (context?.styles?.variables) applyHostStyleVariables(context.styles.variables);
}

renderButton.addEventListener('click', async () => {
  if (!state.templateId) return;
  // The render shows these values: a preview still waiting for its pause has nothing to add.
  if (state.previewTimer) clearTimeout(state.previewTimer);
  state.previewTimer = 0;
  renderButton.disabled = true;
  try {
    await showImageFrom('render_template', {
      templateId: state.templateId,
      modifications: currentModifications(),
      format: 'png',
    });
  } finally {
    renderButton.disabled = false;
  }
});

openStudio.addEventListener('click', async () => {
  if (!state.templateId) return;
  const workspace = await callTool('get_workspace', {});
  if ('failure' in workspace) {
    showError(workspace.failure);
    return;
  }
  const workspaceId = (jsonOf(workspace.result) as { id?: unknown } | null)?.id;
  if (typeof workspaceId !== 'string') return;
  // The console's route for a template's studio (#/w/<workspace>/studio/<template>).
  const url = `${config.baseUrl}/console/#/w/${encodeURIComponent(workspaceId)}/studio/${encodeURIComponent(state.templateId)}`;
  try {
    const { isError } = await app.openLink({ url });
    showError(isError ? { code: 'LINK_REFUSED', message: `The host did not open ${url}` } : null);
  } catch {
    showError({ code: 'LINK_UNSUPPORTED', message: `This host cannot open links: ${url}` });
  }
});

picture.addEventListener('error', () => {
  if (picture.getAttribute('src')) caption.textContent = 'The picture could not be loaded here.';
});

// Handlers are set before connecting, so the tool input and result the host sends at once are caught.
app.connect().then(
  () => applyHostContext(app.getHostContext()),
  (error: unknown) => showError(failureOfThrown(error)),
);
