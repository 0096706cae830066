/** The operator API's credential: `Authorization: Bearer $PLATEN_ADMIN_TOKEN`; anything else is 401. */
import { AppError } from '../core/errors.ts';
import { constantTimeEqual, sha256Hex } from '../core/ids.ts';
import type { Authenticator } from './authenticator.ts';

export function operatorTokenAuthenticator(expected: string | undefined): Authenticator {
  return async ({ headers, address }) => {
    const given = /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? '')?.[1];
    // Hash both sides so the comparison is constant-time whatever the lengths.
    if (!expected || !given || !constantTimeEqual(sha256Hex(given), sha256Hex(expected))) {
      throw new AppError('UNAUTHORIZED');
    }
    return { principal: { workspaceId: '', scopes: new Set(), actor: { type: 'operator_token' }, address } };
  };
}
