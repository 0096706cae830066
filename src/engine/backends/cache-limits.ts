/**
 * Byte budgets of a render process's caches, from the environment (the service validates these
 * variables at start, src/core/config.ts; a render process inherits them). Every cache is bounded
 * in bytes; docs/configuration.md lists the defaults and what each holds.
 *
 * Full caches must not push a render process over the pool's recycling limit: a process replaced
 * for its size starts with every cache empty, and the renders after it pay for that (measured in
 * docs/performance.md, "Caches that fit under the recycling limit"). So the pool tells each
 * render process what share of its budgets it may fill (CACHE_SCALE_VARIABLE, renderCacheScale).
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

/** Set by the pool in each render process's environment: the share of every budget it may fill. */
export const CACHE_SCALE_VARIABLE = 'PLATEN_RENDER_CACHE_SCALE';

/**
 * What a render process holds besides its caches: about 180 MB with nothing cached (Node, Skia,
 * the shipped fonts), one render's working memory (a new 1600×1200 photo decoded, the page's
 * canvas, its strips) and what the allocator keeps of it for the next render (child.ts).
 */
export const RENDER_PROCESS_RESERVE_MB = 300;

/** Below this share the caches would hold too little to be worth having: the limit is too low. */
const MIN_SCALE = 1 / 16;

/** The budget in MB the variable asks for: the variable when it is a non-negative number, else the default. */
function budgetMb(name: CacheName, env: NodeJS.ProcessEnv): number {
  const [variable, fallback] = CACHE_VARIABLES[name];
  const raw = env[variable];
  const mb = raw === undefined || raw.trim() === '' ? fallback : Number(raw);
  return Number.isFinite(mb) && mb >= 0 ? mb : fallback;
}

/**
 * The share of the budgets a render process may fill so that, with its caches full, it stays under
 * `recycleRssMb`: 1 when they fit beside RENDER_PROCESS_RESERVE_MB, else the budgets shrink in
 * proportion (never below MIN_SCALE).
 */
export function renderCacheScale(recycleRssMb: number, env: NodeJS.ProcessEnv = process.env): number {
  const total = (Object.keys(CACHE_VARIABLES) as CacheName[]).reduce(
    (sum, name) => sum + budgetMb(name, env),
    0,
  );
  const room = recycleRssMb - RENDER_PROCESS_RESERVE_MB;
  if (total <= room) return 1;
  return Math.max(MIN_SCALE, room / total);
}

/** The budget in bytes: the variable's (or the default), times the share the pool gave this process. */
export function cacheBytes(name: CacheName, env: NodeJS.ProcessEnv = process.env): number {
  const scale = Number(env[CACHE_SCALE_VARIABLE]);
  const share = Number.isFinite(scale) && scale > 0 && scale < 1 ? scale : 1;
  return Math.floor(budgetMb(name, env) * share * MB);
}
