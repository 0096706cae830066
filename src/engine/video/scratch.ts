/**
 * A render's scratch folder (os.tmpdir()/platen-video-<pid>-*): the played assets' bytes as files
 * (ffmpeg seeks in them; an MP4 whose index sits at its end cannot be read from a pipe) and the
 * encoder's output (`+faststart` rewrites the file it wrote). Made on first use, removed by
 * `dispose()`, which every render calls in a `finally`. A render process killed mid-render (its
 * deadline) runs no `finally`: the pool removes the folders named with its pid when it sees it
 * exit, and a new pool those of processes no longer running (a service killed outright).
 */
import { readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ImageSourceError } from '../backends/image-sources.ts';
import type { JobAsset } from '../types.ts';
import { demuxerFor, forgetInput, registerInput } from './ffmpeg.ts';

const PREFIX = 'platen-video-';

/** Scratch folders of process `pid` (all processes' when undefined), with the pid each belongs to. */
function scratchFolders(pid?: number): { path: string; pid: number }[] {
  let names: string[];
  try {
    names = readdirSync(tmpdir());
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const match = /^platen-video-(\d+)-[A-Za-z0-9]{6}$/.exec(name);
    const owner = Number(match?.[1]);
    return match && (pid === undefined || owner === pid) ? [{ path: join(tmpdir(), name), pid: owner }] : [];
  });
}

/** Removes the scratch folders a (dead) render process left. */
export async function removeScratchOf(pid: number): Promise<void> {
  await Promise.all(scratchFolders(pid).map(({ path }) => rm(path, { recursive: true, force: true })));
}

const running = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Removes the scratch folders of processes that no longer run. */
export async function removeOrphanScratch(): Promise<void> {
  const orphans = scratchFolders().filter(({ pid }) => !running(pid));
  await Promise.all(orphans.map(({ path }) => rm(path, { recursive: true, force: true })));
}

export class ScratchDir {
  private dir: Promise<string> | undefined;
  private readonly written = new Map<string, Promise<string>>();

  constructor(private readonly assets: Record<string, JobAsset>) {}

  /** The folder, made on first use. */
  path(): Promise<string> {
    this.dir ??= mkdtemp(join(tmpdir(), `${PREFIX}${process.pid}-`));
    return this.dir;
  }

  /** A file in the folder. */
  async file(name: string): Promise<string> {
    return join(await this.path(), name);
  }

  /** The asset's bytes as a file (written once); ImageSourceError when the job has no such asset. */
  asset(assetId: string): Promise<string> {
    const asset = this.assets[assetId];
    if (!asset) return Promise.reject(new ImageSourceError(`asset ${assetId} was not found`));
    let path = this.written.get(assetId);
    if (!path) {
      path = this.file(`asset-${assetId}`).then(async (file) => {
        await writeFile(file, asset.bytes);
        const demuxer = demuxerFor(asset.mimeType);
        if (demuxer) registerInput(file, demuxer);
        return file;
      });
      path.catch(() => {});
      this.written.set(assetId, path);
    }
    return path;
  }

  async dispose(): Promise<void> {
    for (const written of this.written.values()) void written.then(forgetInput, () => {});
    if (!this.dir) return;
    const dir = await this.dir.catch(() => undefined);
    if (dir) await rm(dir, { recursive: true, force: true });
  }
}
