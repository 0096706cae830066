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
