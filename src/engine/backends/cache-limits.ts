/**
 * Byte budgets of a render process's caches, from the environment (the service validates these
 * variables at start, src/core/config.ts; a render process inherits them). Every cache is bounded
 * in bytes; docs/configuration.md lists the defaults and what each holds.
 */
const MB = 1024 * 1024;

export const CACHE_VARIABLES = {
  decodedImages: ['PLATEN_CACHE_DECODED_IMAGES_MB', 160],
  drawables: ['PLATEN_CACHE_DRAWABLES_MB', 128],
  fetchedImages: ['PLATEN_CACHE_FETCHED_IMAGES_MB', 64],
  dataUris: ['PLATEN_CACHE_DATA_URIS_MB', 32],
  workspaceFonts: ['PLATEN_CACHE_FONTS_MB', 64],
  renderBases: ['PLATEN_CACHE_RENDER_BASES_MB', 64],
  pdfImages: ['PLATEN_CACHE_PDF_IMAGES_MB', 64],
  processAssets: ['PLATEN_CACHE_PROCESS_ASSETS_MB', 64],
} as const;

export type CacheName = keyof typeof CACHE_VARIABLES;

/** The budget in bytes: the variable when it is a non-negative number, else the default. */
export function cacheBytes(name: CacheName, env: NodeJS.ProcessEnv = process.env): number {
  const [variable, fallback] = CACHE_VARIABLES[name];
  const raw = env[variable];
  const mb = raw === undefined || raw.trim() === '' ? fallback : Number(raw);
  return (Number.isFinite(mb) && mb >= 0 ? mb : fallback) * MB;
}
