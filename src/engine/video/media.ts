/**
 * What a played asset is (length, picture size, which streams): the probe the service took at
 * upload and carries in the job (`JobAsset.media`), or, for callers that build jobs themselves
 * (the CLI), ffmpeg's own reading of the file, once per asset.
 */
import { ImageSourceError } from '../backends/image-sources.ts';
import type { MediaInfo } from '../types.ts';
import { runFfmpeg } from './ffmpeg.ts';
import type { ScratchDir } from './scratch.ts';

/** ffmpeg's description of its input (`ffmpeg -i file` with no output), as a MediaInfo. */
export function parseFfmpegInfo(log: string): MediaInfo | null {
  const duration = /Duration: (\d+):(\d+):(\d+(?:\.\d+)?)/.exec(log);
  const video = /Stream #\d+:\d+.*?: Video: .*?, (\d{1,5})x(\d{1,5})/.exec(log);
  const hasAudio = /Stream #\d+:\d+.*?: Audio: /.test(log);
  if (!duration || (!video && !hasAudio)) return null;
  const [, h, m, s] = duration.map(Number) as [number, number, number, number];
  // Decoders turn rotated phone videos upright: the picture is then the other way round.
  const turned = /rotate\s*:\s*-?(90|270)\b/.test(log);
  const width = Number(video?.[1]);
  const height = Number(video?.[2]);
  return {
    durationMs: Math.round((h * 3600 + m * 60 + s) * 1000),
    ...(video ? (turned ? { width: height, height: width } : { width, height }) : {}),
    hasVideo: video !== null,
    hasAudio,
  };
}

export class MediaCatalog {
  private readonly probes = new Map<string, Promise<MediaInfo>>();
  private readonly probed = new Map<string, MediaInfo>();

  constructor(
    private readonly assets: Record<string, { media?: MediaInfo }>,
    private readonly scratch: ScratchDir,
  ) {}

  /** The asset's media info; ImageSourceError when it is missing or not a video or audio file. */
  info(assetId: string): Promise<MediaInfo> {
    const known = this.assets[assetId]?.media;
    if (known) return Promise.resolve(known);
    let probe = this.probes.get(assetId);
    if (!probe) {
      probe = this.probe(assetId);
      probe.then(
        (info) => this.probed.set(assetId, info),
        () => {},
      );
      this.probes.set(assetId, probe);
    }
    return probe;
  }

  /** The info when it is known without waiting (the job's, or probed already), for the timeline's loops. */
  known(assetId: string): MediaInfo | undefined {
    return this.assets[assetId]?.media ?? this.probed.get(assetId);
  }

  /** A clip's length by `asset:<id>` (design/timeline.ts `TimeOptions.mediaDurationMs`). */
  readonly durationMs = (src: string): number | undefined =>
    src.startsWith('asset:') ? this.known(src.slice('asset:'.length))?.durationMs : undefined;

  private async probe(assetId: string): Promise<MediaInfo> {
    const file = await this.scratch.asset(assetId);
    const run = runFfmpeg(['-loglevel', 'info', '-i', file]);
    // Without an output ffmpeg always exits with an error, after describing its input.
    await run.done.catch(() => {});
    const info = parseFfmpegInfo(run.log());
    if (!info) throw new ImageSourceError(`asset ${assetId} is not a video or audio file ffmpeg can read`);
    return info;
  }
}
