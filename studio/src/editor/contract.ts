/**
 * The contract between the studio shell (studio/src/app: API, autosave, template browser, branding,
 * downloads, the host bridge) and the editor (studio/src/editor: canvas, selection, panels, undo).
 * The shell owns every network call; the editor owns the document while it is open and reports
 * each committed edit through `onChange`. Neither imports the other's internals.
 */
import type { DesignDocument } from '../../../src/engine/browser.ts';

/** An asset as the embed asset routes return it. */
export interface StudioAsset {
  id: string;
  /** Video and audio assets (motion) are listed once the service accepts them. */
  kind: 'image' | 'font' | 'video' | 'audio';
  mimeType: string;
  url: string;
  width?: number;
  height?: number;
  fontFamily?: string;
  /** A video's or sound's length as the upload's probe found it, in ms, when the service says. */
  durationMs?: number;
  media?: { durationMs?: number; width?: number; height?: number };
}

export interface EditorAssets {
  list(): Promise<StudioAsset[]>;
  upload(file: File): Promise<StudioAsset>;
}

/**
 * The fonts the shell loads. `ready` resolves once the faces the document uses are loaded, with the
 * workspace's uploaded families (document name → the FontFace family they were loaded under).
 */
export interface EditorFonts {
  ready: Promise<ReadonlyArray<readonly [string, string]>>;
  /** Loads an uploaded family picked after opening; true when a face was added. */
  loadFamily(family: string): Promise<boolean>;
}

export interface EditorOptions {
  /** The template's normalised document, as GET returned it. */
  document: DesignDocument;
  /** A shared template seen by an end-user: viewable, not editable (the shell offers "duplicate"). */
  readOnly: boolean;
  features: { assetPicker: boolean; smartResize: boolean };
  /** null when the asset picker is off. */
  assets: EditorAssets | null;
  /**
   * An image for a document `src` (`asset:<id>`, an https URL, a data: URI), loaded through the
   * service's own origin; rejects when it cannot be loaded (the editor draws a placeholder).
   */
  loadImage(src: string): Promise<CanvasImageSource & { width: number; height: number }>;
  /**
   * Where a video asset (`asset:<id>`) can be played from: a URL the studio's own origin serves
   * (its CSP allows no other), the clip's probed length when known, and its bytes for when that
   * URL cannot seek (no Range support). The editor seeks a <video> on it to draw each frame.
   * Absent, or rejecting: the element draws as an image that failed.
   */
  loadVideo?(src: string): Promise<{ url: string; durationMs?: number; bytes?(): Promise<Blob> }>;
  /** The document's fonts: the server's own files, bundled and uploaded, as FontFaces. */
  fonts: EditorFonts;
  /** Every committed edit (not every pointer move): the shell autosaves the latest. */
  onChange(document: DesignDocument): void;
  /** Smart resize asked for a new template of another size (a new page is added by the editor). */
  onResizeToNewTemplate?(document: DesignDocument): void;
}

/**
 * A preflight finding (docs/preflight.md) as the shell hands it to the editor: the editor marks the
 * element on the page and in the layers panel; the shell lists them.
 */
export interface EditorFinding {
  code: string;
  severity: 'error' | 'warning' | 'info';
  pageId: string | null;
  elementId: string | null;
  message: string;
}

export interface EditorHandle {
  getDocument(): DesignDocument;
  /** The latest preflight's findings (replacing the earlier ones). */
  setFindings(findings: readonly EditorFinding[]): void;
  /** Shows the page and selects the element a finding names. */
  reveal(pageId: string, elementId: string): void;
  /** Replaces the document (after a reload or a conflict resolution); clears undo history. */
  setDocument(document: DesignDocument, readOnly?: boolean): void;
  destroy(): void;
}

export type MountEditor = (root: HTMLElement, options: EditorOptions) => EditorHandle;
