/** The size presets of "New design" (page units: pixels for raster, points for PDF). */
export interface Preset {
  id: string;
  label: string;
  width: number;
  height: number;
}

export const PRESETS: readonly Preset[] = [
  { id: 'instagram-post', label: 'Instagram post', width: 1080, height: 1080 },
  { id: 'story', label: 'Story', width: 1080, height: 1920 },
  { id: 'banner', label: 'Landscape banner', width: 1200, height: 628 },
  { id: 'a4', label: 'A4 document', width: 595, height: 842 },
];

export const MAX_SIDE = 10000;
