/**
 * The benchmark designs: a realistic 1080x1080 social post (photo background, card, headline,
 * paragraph, logo) built from deterministic parts, shared by bench:render and bench:api.
 */
import sharp from 'sharp';

/** A deterministic photo-like JPEG (smooth gradients plus noise); another `seed`, another photo. */
export async function photoJpeg(width = 1600, height = 1200, photoSeed = 42): Promise<Buffer> {
  const channels = 3;
  const pixels = Buffer.alloc(width * height * channels);
  let seed = photoSeed;
  const random = () => {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    return seed / 2 ** 32;
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * channels;
      const noise = (random() - 0.5) * 40;
      pixels[i] = Math.max(0, Math.min(255, 120 + 100 * Math.sin((x + photoSeed * 37) / 180) + noise));
      pixels[i + 1] = Math.max(0, Math.min(255, 90 + 80 * Math.cos(y / 150) + noise));
      pixels[i + 2] = Math.max(0, Math.min(255, 140 + 60 * Math.sin((x + y) / 260) + noise));
    }
  }
  return sharp(pixels, { raw: { width, height, channels } }).jpeg({ quality: 85 }).toBuffer();
}

export async function photoDataUri(width = 1600, height = 1200, seed = 42): Promise<string> {
  return `data:image/jpeg;base64,${(await photoJpeg(width, height, seed)).toString('base64')}`;
}

const LOGO =
  "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 100 100'><circle cx='50' cy='50' r='46' fill='#1d1d35'/><path d='M30 70 L50 28 L70 70 Z' fill='#ffffff'/></svg>";

export function socialPost(photo: string, page = 'post', headline = 'Summer collection is here') {
  return {
    id: page,
    width: 1080,
    height: 1080,
    background: '#f4efe6',
    elements: [
      {
        id: `${page}-photo`,
        type: 'image',
        name: 'photo',
        x: 0,
        y: 0,
        width: 1080,
        height: 1080,
        src: photo,
        fit: 'cover',
      },
      {
        id: `${page}-card`,
        type: 'rect',
        x: 60,
        y: 600,
        width: 960,
        height: 420,
        fill: '#ffffffee',
        cornerRadius: 32,
      },
      {
        id: `${page}-headline`,
        type: 'text',
        name: 'headline',
        x: 110,
        y: 640,
        width: 860,
        height: 170,
        text: headline,
        fontFamily: 'Inter',
        fontSize: 72,
        fontWeight: 700,
        color: '#1d1d35',
        lineHeight: 1.1,
        autoFit: 'shrink',
      },
      {
        id: `${page}-body`,
        type: 'text',
        x: 110,
        y: 830,
        width: 760,
        height: 160,
        text: 'Free shipping on every order over 50 euros. New arrivals every Friday, gifts for the first hundred customers.',
        fontFamily: 'Inter',
        fontSize: 30,
        color: '#333333',
        lineHeight: 1.4,
      },
      { id: `${page}-logo`, type: 'svg', x: 940, y: 40, width: 100, height: 100, svg: LOGO },
    ],
  };
}

/** The benchmark document; `photo` is an image src (an `asset:<id>` or a data URI). */
export function benchDocument(photo: string, pages = 1) {
  return {
    schemaVersion: 1,
    activePageId: 'post1',
    pages: Array.from({ length: pages }, (_, i) =>
      socialPost(photo, `post${i + 1}`, `Summer collection, part ${i + 1}`),
    ),
  };
}

/**
 * The version 2 benchmark design: the social post's parts with the new features a real template
 * uses together: a cropped, filtered photo; a gradient card with a shadow; a rotated badge group
 * with a shadow; a headline in rich text (a bold coloured word, a gradient); a Code 128 barcode.
 * bench/render-html.ts has its HTML twin for Chromium.
 */
export function richPost(photo: string, page = 'rich', headline = 'Summer collection is here') {
  return {
    id: page,
    width: 1080,
    height: 1080,
    background: {
      type: 'linear',
      angle: 180,
      stops: [
        { offset: 0, color: '#f4efe6' },
        { offset: 1, color: '#e3d5c0' },
      ],
    },
    elements: [
      {
        id: `${page}-photo`,
        type: 'image',
        name: 'photo',
        x: 0,
        y: 0,
        width: 1080,
        height: 620,
        src: photo,
        fit: 'cover',
        crop: { x: 0.1, y: 0.05, width: 0.8, height: 0.8 },
        filters: { brightness: 1.05, saturation: 1.2, sepia: 0.2 },
      },
      {
        id: `${page}-card`,
        type: 'rect',
        x: 60,
        y: 560,
        width: 960,
        height: 460,
        fill: {
          type: 'linear',
          angle: 135,
          stops: [
            { offset: 0, color: '#ffffff' },
            { offset: 1, color: '#f1ecff' },
          ],
        },
        cornerRadius: 32,
        shadow: { color: 'rgba(29, 29, 53, 0.35)', blur: 24, offsetX: 0, offsetY: 12 },
      },
      {
        id: `${page}-headline`,
        type: 'text',
        name: 'headline',
        x: 110,
        y: 600,
        width: 860,
        height: 170,
        spans: [
          { text: 'New: ', color: '#e4572e' },
          { text: headline, fontWeight: 700 },
        ],
        fontFamily: 'Inter',
        fontSize: 72,
        fontWeight: 400,
        color: {
          type: 'linear',
          angle: 90,
          stops: [
            { offset: 0, color: '#1d1d35' },
            { offset: 1, color: '#4b3f9e' },
          ],
        },
        lineHeight: 1.1,
        autoFit: 'shrink',
      },
      {
        id: `${page}-body`,
        type: 'text',
        x: 110,
        y: 790,
        width: 560,
        height: 190,
        text: 'Free shipping on every order over 50 euros. New arrivals every Friday.',
        fontFamily: 'Inter',
        fontSize: 30,
        color: '#333333',
        lineHeight: 1.4,
      },
      {
        id: `${page}-badge`,
        type: 'group',
        x: 800,
        y: 60,
        width: 220,
        height: 220,
        rotation: 12,
        shadow: { color: 'rgba(0, 0, 0, 0.4)', blur: 16, offsetX: 6, offsetY: 10 },
        elements: [
          { id: `${page}-badge-disc`, type: 'ellipse', x: 0, y: 0, width: 220, height: 220, fill: '#e4572e' },
          {
            id: `${page}-badge-text`,
            type: 'text',
            x: 20,
            y: 70,
            width: 180,
            height: 80,
            text: '-30%',
            fontFamily: 'Inter',
            fontSize: 64,
            fontWeight: 700,
            color: '#ffffff',
            align: 'center',
          },
        ],
      },
      {
        id: `${page}-barcode`,
        type: 'barcode',
        x: 700,
        y: 800,
        width: 280,
        height: 180,
        format: 'code128',
        value: 'PLATEN-2026',
      },
    ],
  };
}

/** The version 2 benchmark document (one page). */
export function richDocument(photo: string) {
  return { schemaVersion: 2, activePageId: 'rich', pages: [richPost(photo)] };
}

/** The motion post's subtitle and badge: render-html.ts's HTML twin shows the same text. */
export const MOTION_SUBTITLE =
  'Free shipping on every order over 50 euros. New arrivals every Friday, gifts for the first hundred customers.';
export const MOTION_BADGE = '-30%';

/**
 * When each part of the motion post moves, in ms from the scene's start, for a 10-second scene;
 * a shorter scene (the quick benchmark) scales every time. render-html.ts writes the same numbers
 * as CSS animations for Chromium and takumi.
 */
export const motionTiming = {
  durationMs: 10_000,
  /** The headline slides up into place and fades in (ease-out, the preset's default). */
  headline: { delayMs: 200, durationMs: 1_000 },
  /** The subtitle types itself out, character by character (linear). */
  subtitle: { delayMs: 1_200, durationMs: 3_000 },
  /** The badge pops: scales from 0 with an overshoot (easeOutBack) as it fades in. */
  badge: { delayMs: 4_400, durationMs: 600 },
} as const;

export type MotionTiming = typeof motionTiming;

/** The motion post's height; its width is 1080 (square) or 1920 (a 1080p frame). */
export const MOTION_HEIGHT = 1080;

/** The timing for a scene `durationMs` long: every time scaled from the 10-second original. */
export function motionTimingFor(durationMs: number) {
  const k = durationMs / motionTiming.durationMs;
  const scale = (t: { delayMs: number; durationMs: number }) => ({
    delayMs: t.delayMs * k,
    durationMs: t.durationMs * k,
  });
  return {
    durationMs,
    headline: scale(motionTiming.headline),
    subtitle: scale(motionTiming.subtitle),
    badge: scale(motionTiming.badge),
  };
}

/**
 * The motion benchmark (bench/video.ts): the social post as a scene of a video, its headline
 * sliding up, its subtitle typed out and a discount badge popping in; `durationMs` long (10 s by
 * default), 1080 high and `width` wide (1080 by default; 1920 makes it a 1080p frame). The badge is a plain disc with text (no rotation or shadow) so that every contender
 * can draw it the same way.
 */
export function motionDocument(
  photo: string,
  durationMs: number = motionTiming.durationMs,
  width: number = MOTION_HEIGHT,
) {
  const timing = motionTimingFor(durationMs);
  const post = { ...socialPost(photo, 'motion'), width };
  const elements = post.elements.map((element) => {
    // A wider page (1920×1080, "1080p"): the photo covers it all, the logo keeps its corner.
    if (element.id === 'motion-photo') return { ...element, width };
    if (element.id === 'motion-logo') return { ...element, x: width - 140 };
    if (element.id === 'motion-headline')
      return { ...element, animations: [{ preset: 'slide-up', phase: 'in', ...timing.headline }] };
    if (element.id === 'motion-body')
      return {
        ...element,
        text: MOTION_SUBTITLE,
        animations: [{ preset: 'typewriter', phase: 'in', ...timing.subtitle }],
      };
    return element;
  });
  const badge = {
    id: 'motion-badge',
    type: 'group',
    x: 60,
    y: 60,
    width: 220,
    height: 220,
    animations: [{ preset: 'pop', phase: 'in', ...timing.badge }],
    elements: [
      { id: 'motion-badge-disc', type: 'ellipse', x: 0, y: 0, width: 220, height: 220, fill: '#e4572e' },
      {
        id: 'motion-badge-text',
        type: 'text',
        x: 0,
        y: 71,
        width: 220,
        height: 78,
        text: MOTION_BADGE,
        fontFamily: 'Inter',
        fontSize: 64,
        fontWeight: 700,
        color: '#ffffff',
        align: 'center',
      },
    ],
  };
  return {
    schemaVersion: 2,
    activePageId: 'motion',
    pages: [{ ...post, durationMs, elements: [...elements, badge] }],
  };
}
