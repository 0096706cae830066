/**
 * Gathers what a render job needs from the workspace: bytes of the `asset:<id>` images a document
 * uses, of the uploaded fonts it names, and of the video and audio assets it plays (with what the
 * upload's probe found, `media`). Asset files are immutable, so their bytes are cached. What one
 * render may load is bounded from the asset records before any file is read.
 *
 * Played media is checked from the records alone (`checkMedia`, cheap enough to run before a
 * render is charged): a `video` element must name a video asset, the soundtrack an asset with
 * sound, each of this workspace and visible to the principal; otherwise 400 naming the path.
 */
import { AppError, formatIssuePath, type ValidationIssue } from '../core/errors.ts';
import { assetIdOf, type DesignDocument, mediaSources, pageElements, walkElements } from '../design/index.ts';
import { assetIdsReferenced, isVideoFormat, type JobAsset, type OutputFormat } from '../engine/index.ts';
import type { FileStore } from '../files/index.ts';
import type { AssetRow } from '../store/assets.ts';
import type { Store } from '../store/index.ts';

export interface JobInputs {
  assets: Record<string, JobAsset>;
  fonts: Array<{ family: string; bytes: Uint8Array; assetId: string }>;
}

/** Who may use an asset: a tenant's document naming another end-user's asset sees no such asset. */
export type AssetVisibility = (asset: { ownerUserId: string | null; embedId: string | null }) => boolean;

/**
 * What the render draws, so only the media it plays is checked and loaded: the video elements of
 * `pageIds` (all pages when absent), and the soundtrack only for a video format (a still plays no
 * sound; absent format: every source, as for a video).
 */
export interface MediaScope {
  pageIds?: readonly string[];
  format?: OutputFormat;
}

/** Bytes of assets one render may load (a document may name 25,000 assets of 20 MB). */
const MAX_JOB_INPUT_BYTES = 200 * 1024 * 1024;

/** Problems listed in one refusal; the rest are counted. */
const MAX_MEDIA_ISSUES = 20;

const everyone: AssetVisibility = () => true;

export class JobInputLoader {
  private readonly cache = new Map<string, Uint8Array>();
  private cachedBytes = 0;

  constructor(
    private readonly store: Store,
    private readonly files: FileStore,
    /** PLATEN_CACHE_JOB_INPUTS_MB: asset bytes kept in this process between renders. */
    private readonly cacheBytes = 128 * 1024 * 1024,
  ) {}

  /**
   * Refuses (400 VALIDATION_FAILED, `details` naming each `src`) a document whose played media is
   * missing, of another workspace or end-user, or of the wrong kind. Reads records, never files:
   * call it before charging.
   */
  async checkMedia(
    workspaceId: string,
    document: DesignDocument,
    visible: AssetVisibility = everyone,
    scope: MediaScope = {},
  ): Promise<void> {
    const played = playedDocument(document, scope);
    const ids = mediaIds(played);
    if (ids.length === 0) return;
    mediaRows(document, played, await this.store.assets.getMany(workspaceId, ids), visible);
  }

  /**
   * `visible` says which assets the asking principal may use: a tenant's document naming another
   * end-user's `asset:<id>` renders as if that asset did not exist (an image is then missing; a
   * played video or audio asset is refused, as by `checkMedia`).
   */
  async load(
    workspaceId: string,
    document: DesignDocument,
    visible: AssetVisibility = everyone,
    scope: MediaScope = {},
  ): Promise<JobInputs> {
    const played = playedDocument(document, scope);
    const imageIds = new Set(assetIdsReferenced(document));
    const rows = await this.store.assets.getMany(workspaceId, [
      ...new Set([...imageIds, ...mediaIds(played)]),
    ]);
    const images = rows.filter((row) => imageIds.has(row.id) && row.kind === 'image' && visible(row));
    const media = mediaRows(document, played, rows, visible);
    const families = fontFamiliesOf(document);
    const fontRows =
      families.size === 0
        ? []
        : (await this.store.assets.fonts(workspaceId)).filter(
            (row) => row.fontFamily && families.has(row.fontFamily.toLowerCase()) && visible(row),
          );
    const total = [...images, ...media, ...fontRows].reduce((sum, row) => sum + row.byteSize, 0);
    if (total > MAX_JOB_INPUT_BYTES) {
      throw new AppError('RENDER_FAILED', 'The assets this render uses are too large together.', {
        reason: `assets total ${Math.ceil(total / 2 ** 20)} MB; the limit is ${MAX_JOB_INPUT_BYTES / 2 ** 20} MB a render`,
      });
    }
    const assets: JobInputs['assets'] = {};
    for (const row of images) {
      const bytes = await this.bytes(row.id, row.fileKey);
      if (bytes) assets[row.id] = { bytes, mimeType: row.mimeType };
    }
    for (const row of media) {
      const bytes = await this.bytes(row.id, row.fileKey);
      if (bytes) assets[row.id] = { bytes, mimeType: row.mimeType, media: mediaInfoOf(row) };
    }
    const fonts: JobInputs['fonts'] = [];
    for (const row of fontRows) {
      const bytes = await this.bytes(row.id, row.fileKey);
      if (bytes && row.fontFamily) fonts.push({ family: row.fontFamily, bytes, assetId: row.id });
    }
    return { assets, fonts };
  }

  private async bytes(id: string, fileKey: string): Promise<Uint8Array | null> {
    const cached = this.cache.get(id);
    if (cached) {
      this.cache.delete(id);
      this.cache.set(id, cached);
      return cached;
    }
    const file = await this.files.get(fileKey);
    if (!file) return null;
    const bytes = new Uint8Array(file.bytes);
    // A video may be most of the cache: one that would push out a quarter of it is read each time.
    if (bytes.length > this.cacheBytes / 4) return bytes;
    this.cache.set(id, bytes);
    this.cachedBytes += bytes.length;
    for (const [key, value] of this.cache) {
      if (this.cachedBytes <= this.cacheBytes) break;
      this.cache.delete(key);
      this.cachedBytes -= value.length;
    }
    return bytes;
  }
}

/** The document cut to what the render plays: the scope's pages, and the soundtrack only for a video. */
function playedDocument(
  document: DesignDocument,
  scope: MediaScope,
): Pick<DesignDocument, 'pages' | 'audio'> {
  const pages = scope.pageIds
    ? document.pages.filter((page) => scope.pageIds?.includes(page.id))
    : document.pages;
  const sound = scope.format === undefined || isVideoFormat(scope.format);
  return { pages, audio: sound ? document.audio : undefined };
}

function mediaIds(played: Pick<DesignDocument, 'pages' | 'audio'>): string[] {
  return mediaSources(played).flatMap((src) => assetIdOf(src) ?? []);
}

/** Where a played source is named, and what it must be. */
interface MediaUse {
  path: string;
  src: string;
  needs: 'video' | 'sound';
}

function mediaUses(document: DesignDocument, played: Pick<DesignDocument, 'pages' | 'audio'>): MediaUse[] {
  const uses: MediaUse[] = [];
  for (const page of played.pages) {
    // Paths count pages in the whole document, as the request's author sees it.
    const pageIndex = document.pages.indexOf(page);
    for (const { element, path } of walkElements(page.elements)) {
      if (element.type === 'video')
        uses.push({
          path: formatIssuePath(['pages', pageIndex, ...path, 'src']),
          src: element.src,
          needs: 'video',
        });
    }
  }
  if (played.audio) uses.push({ path: 'audio.src', src: played.audio.src, needs: 'sound' });
  return uses;
}

/** Why `row` cannot play where `use` names it, or null when it can. */
function mediaProblem(use: MediaUse, row: AssetRow | undefined): string | null {
  const name = use.src;
  if (!row)
    return `${name} is not an uploaded ${use.needs === 'video' ? 'video' : 'audio'} asset of this workspace`;
  if (use.needs === 'video') {
    if (row.kind === 'video' && row.hasVideo) return null;
    if (row.kind === 'audio')
      return `${name} is an audio asset: play it as the document's audio, not in a video element`;
    if (row.kind === 'image') return `${name} is an image: show it with an image element`;
    return `${name} is a ${row.kind} asset, not a video`;
  }
  if ((row.kind === 'audio' || row.kind === 'video') && row.hasAudio) return null;
  if (row.kind === 'video') return `${name} is a video without sound: it cannot be the document's audio`;
  return `${name} is ${row.kind === 'image' ? 'an image' : `a ${row.kind} asset`}, not an audio or video asset with sound`;
}

/** The rows the played sources name, each checked; throws 400 listing every problem. */
function mediaRows(
  document: DesignDocument,
  played: Pick<DesignDocument, 'pages' | 'audio'>,
  rows: readonly AssetRow[],
  visible: AssetVisibility,
): AssetRow[] {
  const byId = new Map(rows.filter((row) => visible(row)).map((row) => [row.id, row]));
  const issues: ValidationIssue[] = [];
  const used = new Map<string, AssetRow>();
  let more = 0;
  for (const use of mediaUses(document, played)) {
    const row = byId.get(assetIdOf(use.src) ?? '');
    const problem = mediaProblem(use, row);
    if (!problem && row) used.set(row.id, row);
    else if (problem && issues.length < MAX_MEDIA_ISSUES) issues.push({ path: use.path, message: problem });
    else if (problem) more++;
  }
  if (more > 0) issues.push({ path: '(document)', message: `and ${more} more video or audio sources` });
  if (issues.length > 0)
    throw new AppError(
      'VALIDATION_FAILED',
      'A video or audio source of the document cannot be played.',
      issues,
    );
  return [...used.values()];
}

function mediaInfoOf(row: AssetRow): NonNullable<JobAsset['media']> {
  return {
    durationMs: row.durationMs ?? 0,
    ...(row.width !== null && row.height !== null && row.hasVideo
      ? { width: row.width, height: row.height }
      : {}),
    hasVideo: row.hasVideo ?? false,
    hasAudio: row.hasAudio ?? false,
  };
}

function fontFamiliesOf(document: DesignDocument): Set<string> {
  const families = new Set<string>();
  for (const page of document.pages) {
    for (const element of pageElements(page)) {
      if (element.type !== 'text') continue;
      families.add(element.fontFamily.toLowerCase());
      for (const span of element.spans ?? [])
        if (span.fontFamily) families.add(span.fontFamily.toLowerCase());
    }
  }
  return families;
}
