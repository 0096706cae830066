/**
 * What one render may cost (docs/configuration.md, limits): output pixels, page sides, element counts,
 * source image size, and the PDF rasterisation resolution. Checked before any drawing starts.
 */
import { defaultDesignLimits } from '../design/index.ts';

export const renderLimits = {
  /** Output pixels of one page after scale (raster), or of the page at 1 unit = 1 px (PDF). */
  maxPixels: 50_000_000,
  maxPageSide: defaultDesignLimits.maxPageSide,
  /** A hard stop well above the validated 500 per page, for callers that skip validation. */
  maxElementsPerPage: 10_000,
  maxPages: 1_000,
  /**
   * Pixels that shadows, blurs and filters may pass over in one render (src/design/cost.ts; PDF
   * counts its layers at pdfRasterScale): four full-page effects on the largest 50-megapixel page.
   * Measured on the 2-core CI machine with @napi-rs/canvas: a blur or a shadow over a 4000×4000
   * layer (16 MP) takes about 0.5 s whatever the radius (10 or 250), 49 MP about 2 s; so this
   * bounds a render's effects to about 6 s.
   */
  maxEffectPixels: 200_000_000,
  /** Spans of all text elements of one page (validation allows 5,000 in a document). */
  maxSpansPerPage: 5_000,
  /**
   * Draw work under groups with effects (src/design/cost.ts `redraws`): 200,000 characters under
   * eight nested shadowed groups (512,000 units) took 17 s on the loaded CI machine, about 33 µs a
   * unit; 50,000 bounds it near 2 s while four nested effect groups over a full page of text pass.
   */
  maxRedraws: 50_000,
  /** Bytes of barcode values in one render: a 1,500-byte Data Matrix encodes in about 80 ms, so about 1 s. */
  maxBarcodeBytes: 20_000,
  /**
   * Distinct span styles that `autoFit: shrink` texts measure at every step of their search: 1,000
   * sizes in one element took 4.7 s on the loaded CI machine; 400 keeps a render near 2 s.
   */
  maxAutoFitStyles: 400,
  /** Decoded pixels of one source image (an image bomb is refused before decoding). */
  maxSourcePixels: 60_000_000,
  /**
   * Down to 1/100 for thumbnails (a 10,000-unit page into a 320 px box is 0.032). The public render
   * API keeps its own 1-4 in its request schema.
   */
  minScale: 0.01,
  maxScale: 4,
  /** Resolution at which PDF rasterises what cannot stay vector (2 × 72 = 144 dpi). */
  pdfRasterScale: 2,

  // Motion (video formats, src/engine/video/): each bound is checked before the first frame is drawn.
  /** Frames per second of a video (GIF: at most 50, its delays are counted in hundredths of a second). */
  minFps: 1,
  maxFps: 60,
  maxGifFps: 50,
  /** The whole video, every scene with its transitions (one page alone may be 300 s long). */
  maxVideoMs: 60_000,
  /**
   * Frames × output pixels of one MP4 or WebM (output rounded up to even sides), sized so the
   * costliest likely video ends well within the video deadline (120 s) with one core to itself.
   * Measured on the 2-core CI machine (while loaded), CPU seconds of the whole render (drawing,
   * the clip's decoder, the encoder): a 1080×1080 page filled by a playing 1080p clip (12 Mbit/s)
   * with a moving headline runs at about 24 megapixels per CPU second (MP4; WebM about the same),
   * a full-page photo zooming and turning at about 50, a photo with one moving headline at about
   * 100. 1,500 megapixels: 43 s of 1080×1080 at 30 fps, about 60 s of CPU for the clip-filled
   * kind. Frames of pure noise (about 10 per CPU second) can still reach the deadline, which stops them.
   */
  maxVideoFramePixels: 1_500_000_000,
  /**
   * The same for a GIF: mapping frames to a palette with dithering is far slower, about 2.3
   * megapixels per CPU second for the clip-filled page at 480×480 (both passes), 8 for the
   * zooming photo: 120 megapixels (35 s of 480×480 at 15 fps) stays under a minute of CPU.
   */
  maxGifFramePixels: 120_000_000,
  /**
   * Effect pixels (as maxEffectPixels counts them) of the moving part of each scene, once per frame:
   * a moving element with a shadow or blur is drawn again whenever it moves. At about 32
   * megapixels a second (see maxEffectPixels), 1,500 bound that drawing to under a minute.
   */
  maxVideoEffectPixels: 1_500_000_000,
  /**
   * Characters of text laid out again over all frames (the text of moving elements and of those
   * above them, each frame): 200,000 characters under a typewriter took 1.1 s a frame on the loaded
   * 2-core machine, about 5.5 µs a character; 10 million bounds that work near a minute.
   */
  maxVideoTextFrames: 10_000_000,
  /** Video elements of one page: each plays through a decoder process of its own. */
  maxVideoElementsPerPage: 8,
  /** Sounds mixed into one video (the soundtrack and the clips that are not muted). */
  maxSoundSources: 16,
  /** A video or audio asset played by a render may be at most this long (ten minutes). */
  maxMediaMs: 600_000,
} as const;
