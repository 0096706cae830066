/**
 * Messages between the pool and its render processes, over the IPC channel with `serialization:
 * 'advanced'` (V8 structured clone), so byte arrays cross as bytes, not JSON. Errors cross as data
 * (a class instance would arrive as a plain object), so a process answers with a tagged result.
 */
import type { CacheStats } from '../backends/lru.ts';
import type { WireError } from '../errors.ts';
import type { RenderedFile, RenderJob, StagedFile } from '../types.ts';

/** Pool → process: render one job. A process runs one job at a time. */
export interface RenderRequest {
  kind: 'render';
  /** Its `assets` hold only bytes this process has not been sent before (shipped-assets.ts). */
  job: RenderJob;
  /** Asset ids of this job whose bytes the process was sent earlier. */
  knownAssets: string[];
  /** Write the files into this directory (synced) and answer their paths, not their bytes. */
  outputDir?: string;
}

/** Process → pool: an asset named in `knownAssets` is no longer held; send the job again, whole. */
export interface NeedAssetsMessage {
  kind: 'need-assets';
}

/** Process → pool: sent once, when modules and fonts are loaded and the process can take a job. */
export interface ReadyMessage {
  kind: 'ready';
}

/**
 * A rendered file as answered: its bytes follow on the bulk pipe (bulk.ts), `byteLength` of them,
 * or, for a request with an `outputDir`, they are in the file at `path`.
 */
export type AnsweredFile = Omit<RenderedFile, 'bytes'> & { byteLength: number; path?: string };

/** Process → pool: the answer to the job it was given, its resident set size and caches after it. */
export type RenderAnswer = {
  kind: 'answer';
  rssBytes: number;
  caches: CacheStats[];
} & ({ ok: true; files: AnsweredFile[] } | { ok: false; error: WireError });

export type ChildMessage = ReadyMessage | NeedAssetsMessage | RenderAnswer;

/** An answer with its files' bytes read from the bulk pipe (or staged): what the pool works with. */
export type RenderOutcome = Omit<RenderAnswer, 'files'> &
  ({ ok: true; files: (RenderedFile | StagedFile)[] } | { ok: false; error: WireError });
