/**
 * Reading what Platen's tools answer, as the view receives it: the JSON text item, the inline image
 * (render_template up to 1 MB, preview_template always), and the API's error envelope.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export interface ToolFailure {
  code: string;
  message: string;
}

/** The first text item, parsed; null when there is none or it is not JSON. */
export function jsonOf(result: CallToolResult): unknown {
  const text = result.content.find((item) => item.type === 'text');
  if (text?.type !== 'text') return null;
  try {
    return JSON.parse(text.text);
  } catch {
    return null;
  }
}

/** A failed tool call's `{error: {code, message}}`, as the API answers it. */
export function failureOf(result: CallToolResult): ToolFailure | null {
  if (!result.isError) return null;
  const body = jsonOf(result) as { error?: Partial<ToolFailure> } | null;
  return {
    code: body?.error?.code ?? 'ERROR',
    message: body?.error?.message ?? 'The tool failed.',
  };
}

/**
 * A thrown call: the host or the server refused it. A missing scope is refused by HTTP 403 before
 * any tool runs; hosts relay it as an error whose message carries the API's `{"error": …}` body.
 */
export function failureOfThrown(error: unknown): ToolFailure {
  const message = error instanceof Error ? error.message : String(error);
  const start = message.indexOf('{"error"');
  if (start >= 0) {
    try {
      const body = JSON.parse(message.slice(start)) as { error?: Partial<ToolFailure> };
      if (body.error?.code) return { code: body.error.code, message: body.error.message ?? message };
    } catch {
      // not the API's body after all: the message as it is, below
    }
  }
  return { code: /\b403\b/.test(message) ? 'INSUFFICIENT_SCOPE' : 'ERROR', message };
}

/** The picture to show: inline image content first (it needs no network), else a render's file URL. */
export function imageSourceOf(result: CallToolResult): string | null {
  const image = result.content.find((item) => item.type === 'image');
  if (image && image.type === 'image') return `data:${image.mimeType};base64,${image.data}`;
  const body = jsonOf(result) as { url?: unknown; format?: unknown; pages?: Array<{ url?: unknown }> } | null;
  const url = body?.url ?? body?.pages?.[0]?.url;
  const showable = body?.format === undefined || ['png', 'jpeg', 'gif'].includes(String(body.format));
  return typeof url === 'string' && showable ? url : null;
}

export interface RenderCredits {
  charged: number;
  balanceAfter: number;
}

export function creditsOf(result: CallToolResult): RenderCredits | null {
  const body = jsonOf(result) as { credits?: RenderCredits } | null;
  return body?.credits && typeof body.credits.charged === 'number' ? body.credits : null;
}
