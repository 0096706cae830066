/**
 * The editor's toolbar: add elements (an image from the asset picker when enabled, else by URL; a
 * video from the picker's videos, else by its asset id), undo and redo, group and ungroup,
 * duplicate and delete, and zoom. Every button is labelled for assistive technology and disabled
 * when it cannot act.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { classifyImageSrc, videoElementSchema } from '../../../src/engine/browser.ts';
import { AssetPicker, type PickedImage } from './AssetPicker.tsx';
import { useEditorState, useServices } from './context.ts';
import { activePage } from './doc-ops.ts';
import type { AddableType } from './factory.ts';
import { Icon, type IconName } from './icons.tsx';
import { locate } from './tree-ops.ts';
import { stepZoom } from './zoom.ts';

const ADD: { type: Exclude<AddableType, 'image' | 'video'>; label: string; icon: IconName }[] = [
  { type: 'text', label: 'Add text', icon: 'text' },
  { type: 'rect', label: 'Add rectangle', icon: 'rect' },
  { type: 'ellipse', label: 'Add ellipse', icon: 'ellipse' },
  { type: 'line', label: 'Add line', icon: 'line' },
  { type: 'qr', label: 'Add QR code', icon: 'qr' },
  { type: 'barcode', label: 'Add barcode', icon: 'barcode' },
];

export function Toolbar({ fitPage }: { fitPage(): void }) {
  const state = useEditorState();
  const { store, actions, options } = useServices();
  const [image, setImage] = useState<'picker' | 'url' | 'video-picker' | 'video-id' | null>(null);
  const d = state.readOnly;
  const none = state.selection.length === 0;
  const page = activePage(state.doc);
  const hasGroup = state.selection.some((id) => locate(page.elements, id)?.element.type === 'group');
  const addImage = (picked: PickedImage) => {
    setImage(null);
    actions.add('image', {
      src: picked.src,
      ...(picked.width && picked.height ? { imageSize: { width: picked.width, height: picked.height } } : {}),
    });
  };
  const addVideo = (picked: PickedImage) => {
    setImage(null);
    actions.add('video', {
      src: picked.src,
      ...(picked.width && picked.height ? { imageSize: { width: picked.width, height: picked.height } } : {}),
    });
  };
  const usePicker = options.features.assetPicker && options.assets !== null;
  return (
    <div class="pe-toolbar" role="toolbar" aria-label="Editor tools">
      <fieldset class="pe-group-buttons" aria-label="Add elements">
        {ADD.slice(0, 1).map((b) => (
          <button
            key={b.type}
            type="button"
            disabled={d}
            aria-label={b.label}
            title={b.label}
            onClick={() => actions.add(b.type)}
          >
            <Icon name="text" /> Text
          </button>
        ))}
        <button
          type="button"
          disabled={d}
          aria-label="Add image"
          title="Add image"
          onClick={() => setImage(usePicker ? 'picker' : 'url')}
        >
          <Icon name="image" /> Image
        </button>
        <button
          type="button"
          class="pe-icon"
          disabled={d}
          aria-label="Add video"
          title="Add video"
          onClick={() => setImage(usePicker ? 'video-picker' : 'video-id')}
        >
          <Icon name="video" />
        </button>
        {ADD.slice(1).map((b) => (
          <button
            key={b.type}
            type="button"
            class="pe-icon"
            disabled={d}
            aria-label={b.label}
            title={b.label}
            onClick={() => actions.add(b.type)}
          >
            <Icon name={b.icon} />
          </button>
        ))}
      </fieldset>
      <fieldset class="pe-group-buttons" aria-label="History">
        <button
          type="button"
          class="pe-icon"
          disabled={d || state.history.past.length === 0}
          aria-label="Undo"
          title="Undo (Ctrl+Z)"
          onClick={() => store.undo()}
        >
          <Icon name="undo" />
        </button>
        <button
          type="button"
          class="pe-icon"
          disabled={d || state.history.future.length === 0}
          aria-label="Redo"
          title="Redo (Ctrl+Shift+Z)"
          onClick={() => store.redo()}
        >
          <Icon name="redo" />
        </button>
      </fieldset>
      <fieldset class="pe-group-buttons" aria-label="Selection">
        <button
          type="button"
          class="pe-icon"
          disabled={d || none}
          aria-label="Group selection"
          title="Group (Ctrl+G)"
          onClick={() => actions.group()}
        >
          <Icon name="group" />
        </button>
        <button
          type="button"
          class="pe-icon"
          disabled={d || !hasGroup}
          aria-label="Ungroup"
          title="Ungroup (Ctrl+Shift+G)"
          onClick={() => actions.ungroup()}
        >
          <Icon name="ungroup" />
        </button>
        <button
          type="button"
          class="pe-icon"
          disabled={d || none}
          aria-label="Duplicate selection"
          title="Duplicate (Ctrl+D)"
          onClick={() => actions.duplicateSelection()}
        >
          <Icon name="copy" />
        </button>
        <button
          type="button"
          class="pe-icon"
          disabled={d || none}
          aria-label="Delete selection"
          title="Delete (Del)"
          onClick={() => actions.deleteSelection()}
        >
          <Icon name="trash" />
        </button>
      </fieldset>
      <span class="pe-spacer" />
      <fieldset class="pe-group-buttons" aria-label="Zoom">
        <button
          type="button"
          class="pe-icon"
          aria-label="Zoom out"
          title="Zoom out (Ctrl+-)"
          onClick={() => store.set({ zoom: stepZoom(state.zoom, -1) })}
        >
          −
        </button>
        <button
          type="button"
          class="pe-zoom"
          aria-label={`Zoom ${Math.round(state.zoom * 100)}%, set to 100%`}
          title="Actual size (Ctrl+0)"
          onClick={() => store.set({ zoom: 1 })}
        >
          {Math.round(state.zoom * 100)}%
        </button>
        <button
          type="button"
          class="pe-icon"
          aria-label="Zoom in"
          title="Zoom in (Ctrl++)"
          onClick={() => store.set({ zoom: stepZoom(state.zoom, 1) })}
        >
          +
        </button>
        <button type="button" aria-label="Zoom to fit" title="Fit the page" onClick={fitPage}>
          Fit
        </button>
      </fieldset>
      {image === 'picker' && <AssetPicker onPick={addImage} onClose={() => setImage(null)} />}
      {image === 'url' && (
        <ImageUrlDialog onAdd={(src) => addImage({ src })} onClose={() => setImage(null)} />
      )}
      {image === 'video-picker' && (
        <AssetPicker kind="video" onPick={addVideo} onClose={() => setImage(null)} />
      )}
      {image === 'video-id' && (
        <ImageUrlDialog video onAdd={(src) => addVideo({ src })} onClose={() => setImage(null)} />
      )}
    </div>
  );
}

/** Asks for an image's URL, or (`video`) a video asset's id, the one source a video element takes. */
function ImageUrlDialog({
  onAdd,
  onClose,
  video = false,
}: {
  onAdd(src: string): void;
  onClose(): void;
  video?: boolean;
}) {
  const [url, setUrl] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const field = useRef<HTMLInputElement>(null);
  // The dialog exists to take this one value: focus it on opening.
  useEffect(() => field.current?.focus(), []);
  return (
    <div class="pe-modal-backdrop">
      <form
        class="pe-modal"
        role="dialog"
        aria-modal="true"
        aria-label={video ? 'Add a video by its asset id' : 'Add an image by URL'}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.stopPropagation();
            onClose();
          }
        }}
        onSubmit={(event) => {
          event.preventDefault();
          const src = url.trim();
          if (video) {
            if (videoElementSchema.shape.src.safeParse(src).success) onAdd(src);
            else setProblem('Enter asset: followed by the id of an uploaded video.');
          } else if (classifyImageSrc(src) === null) setProblem('Enter an https URL or a data:image URI.');
          else onAdd(src);
        }}
      >
        <h2>{video ? 'Add a video' : 'Add an image'}</h2>
        <label class="pe-field">
          {video ? 'Video asset' : 'Image URL'}
          <input
            ref={field}
            type={video ? 'text' : 'url'}
            value={url}
            onInput={(event) => setUrl(event.currentTarget.value)}
            placeholder={video ? 'asset:…' : 'https://…'}
          />
        </label>
        {problem && <p role="alert">{problem}</p>}
        <div class="pe-row">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" class="primary">
            {video ? 'Add video' : 'Add image'}
          </button>
        </div>
      </form>
    </div>
  );
}
