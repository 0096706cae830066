/**
 * A visual crop control in the image's properties: the whole source drawn small, the part outside
 * the crop dimmed, and the crop rectangle, which the pointer drags (inside to move, a corner to
 * resize) and the keyboard moves (arrow keys, 1%; Shift resizes from the bottom-right corner).
 * A drag commits once when it ends; the numeric fields beside it give exact values.
 */
import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useServices } from './context.ts';
import { type Crop, type CropHandle, dragCrop } from './crop-ops.ts';

const WIDTH = 220;
const CORNERS = ['nw', 'ne', 'sw', 'se'] as const;

export function CropBox({
  src,
  crop,
  disabled,
  onCommit,
}: {
  src: string;
  crop: Crop;
  disabled: boolean;
  onCommit(crop: Crop): void;
}) {
  const { options } = useServices();
  const canvas = useRef<HTMLCanvasElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const [height, setHeight] = useState<number | null>(null);
  const [draft, setDraft] = useState<Crop | null>(null);
  const drag = useRef<{ handle: CropHandle; x: number; y: number; start: Crop } | null>(null);

  useEffect(() => {
    let live = true;
    options.loadImage(src).then(
      (image) => {
        const target = canvas.current;
        if (!live || !target || image.width <= 0 || image.height <= 0) return;
        const h = Math.max(40, Math.min(320, Math.round((WIDTH * image.height) / image.width)));
        target.width = WIDTH;
        target.height = h;
        target.getContext('2d')?.drawImage(image, 0, 0, WIDTH, h);
        setHeight(h);
      },
      () => live && setHeight(null),
    );
    return () => {
      live = false;
    };
  }, [src, options]);

  const shown = draft ?? crop;
  const start = (handle: CropHandle) => (event: JSX.TargetedPointerEvent<HTMLElement>) => {
    if (disabled || event.button !== 0) return;
    event.preventDefault();
    event.stopPropagation();
    drag.current = { handle, x: event.clientX, y: event.clientY, start: crop };
    box.current?.setPointerCapture(event.pointerId);
  };
  const onMove = (event: JSX.TargetedPointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d || !height) return;
    setDraft(dragCrop(d.start, d.handle, (event.clientX - d.x) / WIDTH, (event.clientY - d.y) / height));
  };
  const onUp = () => {
    drag.current = null;
    if (draft) onCommit(draft);
    setDraft(null);
  };
  const onKey = (event: JSX.TargetedKeyboardEvent<HTMLButtonElement>) => {
    const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[event.key];
    if (!step || disabled) return;
    event.preventDefault();
    event.stopPropagation();
    onCommit(dragCrop(crop, event.shiftKey ? 'se' : 'move', (step[0] ?? 0) / 100, (step[1] ?? 0) / 100));
  };

  const pct = (v: number) => `${v * 100}%`;
  return (
    <div
      ref={box}
      class="pe-crop-box"
      style={{ width: `${WIDTH}px`, height: `${height ?? 0}px`, display: height ? undefined : 'none' }}
      onPointerMove={onMove}
      onPointerUp={onUp}
      onPointerCancel={() => {
        drag.current = null;
        setDraft(null);
      }}
    >
      <canvas ref={canvas} role="img" aria-label="The whole source image, the part outside the crop dimmed" />
      <button
        type="button"
        class="pe-crop-rect"
        disabled={disabled}
        aria-label="Crop area: arrow keys move it, Shift with arrow keys resizes it"
        style={{ left: pct(shown.x), top: pct(shown.y), width: pct(shown.width), height: pct(shown.height) }}
        onPointerDown={start('move')}
        onKeyDown={onKey}
      >
        {CORNERS.map((corner) => (
          <span
            key={corner}
            class={`pe-crop-handle is-${corner}`}
            aria-hidden="true"
            onPointerDown={start(corner)}
          />
        ))}
      </button>
    </div>
  );
}
