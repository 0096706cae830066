/**
 * Turns a signed render URL into a principal: the template's workspace, whose URL-signing secrets
 * (current, and previous ones within their grace) must verify the signature; then the expiry (`exp`,
 * when present); the subscription and the scope are the kernel's (http/auth-hook.ts). A signature is checked before anything the URL says is
 * believed, so a tampered `exp` is a bad signature, not an expired URL. The principal may render and
 * read that workspace's templates, and nothing else.
 */
import { AppError } from '../core/errors.ts';
import type { Store } from '../store/index.ts';
import type { Authenticator } from './authenticator.ts';
import type { Scope } from './scopes.ts';
import { parseSignedUrl, signatureMatches } from './url-signature.ts';

const SIGNED_URL_SCOPES: ReadonlySet<Scope> = new Set(['render:write', 'template:read']);

export function signedUrlAuthenticator(store: Store, now: () => Date = () => new Date()): Authenticator {
  return async ({ url, params, address }) => {
    const signed = parseSignedUrl(url);
    if (!signed?.signature) throw new AppError('INVALID_SIGNATURE', 'The URL is not signed.');
    const template = await store.templates.renderMeta(params.id ?? '');
    if (!template) throw new AppError('NOT_FOUND', 'The template was not found.');
    const at = now();
    const keys = await store.urlSecrets.verifyingKeys(template.workspaceId, at);
    const signature = signed.signature;
    const key = keys.find((candidate) => signatureMatches(signed.canonical, signature, candidate.key));
    if (!key) throw new AppError('INVALID_SIGNATURE');
    const exp = signed.params.filter(([name]) => name === 'exp').map(([, value]) => value);
    if (exp.length > 1 || (exp[0] !== undefined && !/^\d{1,12}$/.test(exp[0])))
      throw new AppError('VALIDATION_FAILED', '`exp` must be one Unix time in seconds.', [
        { path: 'exp', message: 'expected one Unix time in seconds' },
      ]);
    if (exp[0] !== undefined && Number(exp[0]) * 1000 <= at.getTime()) throw new AppError('URL_EXPIRED');
    const workspace = await store.workspaces.get(template.workspaceId);
    if (!workspace) throw new AppError('NOT_FOUND', 'The template was not found.');
    return {
      principal: {
        workspaceId: template.workspaceId,
        scopes: SIGNED_URL_SCOPES,
        actor: { type: 'signed_url', secretId: key.secretId },
        address,
      },
      workspaceSuspended: workspace.suspended,
    };
  };
}
