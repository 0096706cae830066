/**
 * Template thumbnails: small previews of the active page, rendered in the background after every
 * create and save, never charged (service.ts), with saves coalesced per template (queue.ts).
 */
export {
  ThumbnailService,
  type ThumbnailServiceOptions,
  type ThumbnailStats,
  thumbnailScale,
  thumbnailSize,
} from './service.ts';
