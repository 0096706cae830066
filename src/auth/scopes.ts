/** The five API scopes of the spec; a credential holds a subset and never more. */
import { z } from 'zod';

export const SCOPES = [
  'template:read',
  'template:write',
  'render:write',
  'asset:read',
  'asset:write',
] as const;
export const scopeSchema = z.enum(SCOPES);
export type Scope = z.infer<typeof scopeSchema>;

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
