/**
 * In-place text editing: a textarea laid over the text element with its font, size, colour,
 * alignment, spacing and rotation, scaled by the zoom. The element itself is hidden on the canvas
 * meanwhile. Blur, Escape and Ctrl/Cmd+Enter commit (one undo step); an unchanged text commits
 * nothing.
 */
import { useEffect, useRef } from 'preact/hooks';
import type { TextElement } from '../../../src/engine/browser.ts';
import { useServices } from './context.ts';

export function TextEditor({ el, zoom }: { el: TextElement; zoom: number }) {
  const { store, actions } = useServices();
  const area = useRef<HTMLTextAreaElement>(null);
  const finished = useRef(false);

  useEffect(() => {
    const input = area.current;
    if (!input) return;
    input.focus();
    input.select();
  }, []);

  const finish = () => {
    if (finished.current) return;
    finished.current = true;
    const text = area.current?.value ?? el.text;
    store.set({ editingTextId: null });
    if (text !== el.text) actions.updateElement(el.id, { text });
    // Back to the canvas, so shortcuts keep working after the edit.
    document.querySelector<HTMLElement>('.pe-viewport')?.focus({ preventScroll: true });
  };

  const justify = el.align === 'justify' ? 'justify' : el.align;
  return (
    <textarea
      ref={area}
      class="pe-text-editor"
      aria-label="Edit text"
      defaultValue={el.text}
      spellcheck={false}
      style={{
        left: `${el.x * zoom}px`,
        top: `${el.y * zoom}px`,
        width: `${el.width * zoom}px`,
        height: `${el.height * zoom}px`,
        transform: el.rotation ? `rotate(${el.rotation}deg)` : undefined,
        fontFamily: `"${el.fontFamily}", Inter, sans-serif`,
        fontSize: `${el.fontSize * zoom}px`,
        fontWeight: el.fontWeight,
        fontStyle: el.fontStyle,
        color: el.color,
        textAlign: justify,
        lineHeight: String(el.lineHeight),
        letterSpacing: `${el.letterSpacing * zoom}px`,
        textTransform: el.textTransform,
      }}
      onBlur={finish}
      onKeyDown={(event) => {
        event.stopPropagation();
        if (event.key === 'Escape' || (event.key === 'Enter' && (event.ctrlKey || event.metaKey))) {
          event.preventDefault();
          finish();
        }
      }}
    />
  );
}
