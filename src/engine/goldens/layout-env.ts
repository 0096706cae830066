/** A LayoutEnv backed by this process's canvas and bundled fonts, for tests that inspect layout directly. */
import { createCanvas } from '@napi-rs/canvas';
import { fontCatalogFor } from '../backends/fonts.ts';
import { createCanvasMeasurer } from '../draw/index.ts';
import type { ImageInfo, LayoutEnv } from '../layout/index.ts';

export function testLayoutEnv(images: Map<string, ImageInfo> = new Map()): LayoutEnv {
  return {
    measurer: createCanvasMeasurer(createCanvas(1, 1).getContext('2d')),
    fonts: fontCatalogFor('ws_test', []),
    images,
    deviceScale: 1,
  };
}
