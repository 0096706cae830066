/**
 * A video's sound: the document's soundtrack (`audio: {src, volume?}`, from the start) and every
 * visible, unmuted video element's own sound (from its scene's start, from `trimStartMs` into the
 * clip, for the scene's length, again from `trimStartMs` when it `loop`s), mixed into one stereo
 * 48 kHz track cut to the video's length. Assets without an audio stream add nothing; GIF has none.
 *
 * ffmpeg 4.1's `aloop` never ends when its input is shorter than the size it was given, so a looping
 * clip's stretch is first decoded to a WAV file of its own, which `-stream_loop` repeats exactly.
 * `amix` divides by the number of inputs that are still playing, so every input is padded to the
 * video's length (the divisor never changes) and the mix is multiplied back by that number.
 */

import type { AudioTrack } from '../../design/index.ts';
import { type Page, type Scene, walkElements } from '../../design/index.ts';
import { ffSeconds, runFfmpeg } from './ffmpeg.ts';
import type { MediaCatalog } from './media.ts';
import type { ScratchDir } from './scratch.ts';

export const SAMPLE_RATE = 48_000;

export interface Sound {
  assetId: string;
  /** When it starts in the video. */
  startMs: number;
  /** Where in the asset it starts. */
  trimMs: number;
  /** How long it plays. */
  lengthMs: number;
  /** The stretch from trimMs to the asset's end repeats for lengthMs. */
  loop: boolean;
  volume: number;
}

const assetOf = (src: string): string => src.slice('asset:'.length);

/** The sounds of a video of `pages` laid out as `scenes`, `durationMs` long. */
export async function soundsOf(
  pages: readonly Page[],
  scenes: readonly Scene[],
  audio: AudioTrack | undefined,
  durationMs: number,
  media: MediaCatalog,
): Promise<Sound[]> {
  const sounds: Sound[] = [];
  if (audio && (audio.volume ?? 1) > 0) {
    const info = await media.info(assetOf(audio.src));
    if (info.hasAudio)
      sounds.push({
        assetId: assetOf(audio.src),
        startMs: 0,
        trimMs: 0,
        lengthMs: Math.min(durationMs, info.durationMs),
        loop: false,
        volume: audio.volume ?? 1,
      });
  }
  for (const scene of scenes) {
    const page = pages[scene.pageIndex] as Page;
    const sceneMs = Math.min(scene.durationMs, durationMs - scene.startMs);
    for (const { element, ancestors } of walkElements(page.elements)) {
      if (element.type !== 'video' || element.muted || !element.visible) continue;
      if (!ancestors.every((group) => group.visible)) continue;
      const info = await media.info(assetOf(element.src));
      const trimMs = element.trimStartMs ?? 0;
      const left = info.durationMs - trimMs;
      if (!info.hasAudio || left <= 0 || sceneMs <= 0) continue;
      const loop = (element.loop ?? false) && left < sceneMs;
      sounds.push({
        assetId: assetOf(element.src),
        startMs: scene.startMs,
        trimMs,
        lengthMs: loop ? sceneMs : Math.min(sceneMs, left),
        loop,
        volume: 1,
      });
    }
  }
  return sounds;
}

/** ffmpeg inputs and the filter graph that mix `sounds` into `[aout]`, inputs counted from `firstInput`. */
export async function soundInputs(
  sounds: readonly Sound[],
  firstInput: number,
  durationMs: number,
  scratch: ScratchDir,
): Promise<{ inputs: string[]; filter: string }> {
  const inputs: string[] = [];
  const chains: string[] = [];
  const total = Math.round((durationMs / 1000) * SAMPLE_RATE);
  for (const [index, sound] of sounds.entries()) {
    const file = await scratch.asset(sound.assetId);
    if (sound.loop) {
      const stretch = await scratch.file(`loop-${index}.wav`);
      await runFfmpeg([
        '-loglevel',
        'error',
        '-ss',
        ffSeconds(sound.trimMs),
        '-i',
        file,
        '-vn',
        '-ac',
        '2',
        '-ar',
        String(SAMPLE_RATE),
        '-c:a',
        'pcm_s16le',
        '-y',
        stretch,
      ]).done;
      inputs.push('-stream_loop', '-1', '-i', stretch);
    } else {
      inputs.push('-ss', ffSeconds(sound.trimMs), '-t', ffSeconds(sound.lengthMs), '-i', file);
    }
    const delay = Math.round(sound.startMs);
    chains.push(
      `[${firstInput + index}:a]aresample=${SAMPLE_RATE},aformat=sample_fmts=fltp:channel_layouts=stereo,` +
        `atrim=duration=${ffSeconds(sound.lengthMs)},asetpts=PTS-STARTPTS,adelay=${delay}|${delay},` +
        `volume=${sound.volume},apad=whole_len=${total}[s${index}]`,
    );
  }
  const labels = sounds.map((_, index) => `[s${index}]`).join('');
  const mix =
    sounds.length === 1
      ? `${labels}anull`
      : `${labels}amix=inputs=${sounds.length}:duration=longest:dropout_transition=0,volume=${sounds.length}`;
  chains.push(`${mix},atrim=duration=${ffSeconds(durationMs)}[aout]`);
  return { inputs, filter: chains.join(';') };
}
