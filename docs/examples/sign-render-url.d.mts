// Types of sign-render-url.mjs (for TypeScript backends, and this repository's typecheck).
export interface SignRenderUrlInput {
  baseUrl: string;
  templateId: string;
  format?: 'png' | 'jpeg' | 'pdf';
  variables?: Record<string, string>;
  options?: { scale?: number; quality?: number; pageId?: string };
  expiresAt?: Date;
  secret: string;
}
export function signRenderUrl(input: SignRenderUrlInput): string;
