/**
 * In-place rich text editing: a contenteditable box laid over the text element (its font, size,
 * colour, alignment, spacing and rotation, scaled by the zoom, inside the transform of the groups
 * around it), with a text-style toolbar above it. The element itself is hidden on the canvas
 * meanwhile. Typing is the browser's; Bold, Italic, Underline, Strikethrough, Colour, Size and
 * Link act on the selected characters (splitting spans at the selection, merging equal
 * neighbours), also from the keyboard: Ctrl/Cmd+B, Ctrl/Cmd+I, Ctrl/Cmd+U, Ctrl/Cmd+K (link).
 * Enter inserts a line break; pasting inserts plain text in the style where it lands.
 * Focus leaving the editor and its toolbar, Escape and Ctrl/Cmd+Enter commit the whole edit as one
 * undo step; an unchanged text commits nothing. Plain text stays plain until something is styled.
 */
import type { JSX } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { linkSchema, type Span, type TextElement } from '../../../src/engine/browser.ts';
import { useServices } from './context.ts';
import { useDraft } from './fields.tsx';
import { cornersOf } from './geometry.ts';
import { firstColor } from './paint-ops.ts';
import { readSpans, selectionOffsets, selectOffsets, writeSpans } from './rich-dom.ts';
import {
  applyStyle,
  boldPatch,
  commonValue,
  contentFields,
  isBold,
  isItalic,
  italicPatch,
  replaceRange,
  type SpanStyle,
  type StylePatch,
  spansOf,
  textOf,
} from './spans.ts';
import { apply, type Matrix } from './tree-ops.ts';

/** Screen pixels the toolbar needs above the text (two rows when the link field is open). */
const TOOLBAR_ROOM = 90;

export function TextEditor({ el, zoom, matrix }: { el: TextElement; zoom: number; matrix: Matrix }) {
  const { store, actions } = useServices();
  const wrapper = useRef<HTMLDivElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  const editable = useRef<HTMLDivElement | null>(null);
  const styles = useRef<SpanStyle[]>([]);
  const range = useRef<[number, number]>([0, 0]);
  const finished = useRef(false);
  const [, setTick] = useState(0);
  const [link, setLink] = useState<string | null>(null);
  const linkField = useRef<HTMLInputElement>(null);
  const refresh = () => setTick((n) => n + 1);

  const read = (): Span[] => (editable.current ? readSpans(editable.current, styles.current) : spansOf(el));
  const write = (spans: readonly Span[], start: number, end: number) => {
    const root = editable.current;
    if (!root) return;
    styles.current = writeSpans(root, spans, zoom);
    root.focus({ preventScroll: true });
    selectOffsets(root, start, end);
    range.current = [start, end];
    refresh();
  };

  const finish = () => {
    if (finished.current) return;
    finished.current = true;
    const fields = contentFields(read());
    store.set({ editingTextId: null });
    const before = contentFields(spansOf(el));
    if (JSON.stringify(fields) !== JSON.stringify(before)) actions.updateElement(el.id, fields);
    // Back to the canvas, so shortcuts keep working after the edit.
    document.querySelector<HTMLElement>('.pe-viewport')?.focus({ preventScroll: true });
  };

  /**
   * The selection now: read from the DOM while it is in the editable (selectionchange arrives a
   * task later, after a quick key press), else the last one seen (a toolbar field has the focus).
   */
  const currentRange = (): [number, number] => {
    const root = editable.current;
    const live = root ? selectionOffsets(root, styles.current) : null;
    if (live) range.current = live;
    return range.current;
  };

  /** Applies a style to the selected characters (nothing to style at a bare caret: says so). */
  const style = (patch: StylePatch) => {
    const [a, b] = currentRange();
    if (a === b) {
      store.set({ notice: 'Select some text to style it.' });
      editable.current?.focus({ preventScroll: true });
      return;
    }
    store.set({ notice: null });
    write(applyStyle(read(), a, b, patch), a, b);
  };

  const insert = (text: string) => {
    const [a, b] = currentRange();
    write(replaceRange(read(), a, b, text), a + text.length, a + text.length);
  };

  const openLink = () => {
    const [a, b] = currentRange();
    setLink(commonValue(read(), a, b, 'link') ?? 'https://');
  };

  // The editable is made here, not by Preact: the browser and this component both change its
  // children, which a virtual DOM must not diff.
  useLayoutEffect(() => {
    const host = frame.current;
    if (!host) return;
    const root = document.createElement('div');
    root.className = 'pe-rich-editable';
    root.contentEditable = 'true';
    root.spellcheck = false;
    root.setAttribute('role', 'textbox');
    root.setAttribute('aria-multiline', 'true');
    root.setAttribute('aria-label', 'Edit text');
    host.append(root);
    editable.current = root;
    const spans = spansOf(el);
    styles.current = writeSpans(root, spans, zoom);
    root.focus({ preventScroll: true });
    const length = textOf(spans).length;
    selectOffsets(root, 0, length);
    range.current = [0, length];
    return () => root.remove();
    // Made once per editing session (the component is keyed by the element id).
  }, []);

  // Remember the last selection inside the editable: the toolbar's fields take the focus away.
  useEffect(() => {
    const onChange = () => {
      const root = editable.current;
      if (!root) return;
      const offsets = selectionOffsets(root, styles.current);
      if (offsets) {
        range.current = offsets;
        refresh();
      }
    };
    document.addEventListener('selectionchange', onChange);
    return () => document.removeEventListener('selectionchange', onChange);
  }, []);

  useEffect(() => {
    if (link !== null) linkField.current?.focus();
  }, [link !== null]);

  // Keys and clipboard on the editable itself.
  useEffect(() => {
    const root = editable.current;
    if (!root) return;
    const onKeyDown = (event: KeyboardEvent) => {
      event.stopPropagation();
      const mod = event.ctrlKey || event.metaKey;
      const key = event.key.toLowerCase();
      if (event.key === 'Escape' || (event.key === 'Enter' && mod)) {
        event.preventDefault();
        finish();
      } else if (event.key === 'Enter') {
        event.preventDefault();
        insert('\n');
      } else if (mod && !event.altKey && ['b', 'i', 'u', 'k'].includes(key)) {
        event.preventDefault();
        run(key as 'b' | 'i' | 'u' | 'k');
      }
    };
    const onPaste = (event: ClipboardEvent) => {
      event.preventDefault();
      insert((event.clipboardData?.getData('text/plain') ?? '').replace(/\r\n?/g, '\n'));
    };
    const onBeforeInput = (event: InputEvent) => {
      // The browser's own rich formatting would bypass the spans.
      if (event.inputType.startsWith('format') || event.inputType === 'insertFromDrop')
        event.preventDefault();
    };
    root.addEventListener('keydown', onKeyDown);
    root.addEventListener('paste', onPaste);
    root.addEventListener('beforeinput', onBeforeInput);
    return () => {
      root.removeEventListener('keydown', onKeyDown);
      root.removeEventListener('paste', onPaste);
      root.removeEventListener('beforeinput', onBeforeInput);
    };
  });

  const spans = editable.current ? read() : spansOf(el);
  const [a, b] = range.current;
  const bold = isBold(el, spans, a, b);
  const italic = isItalic(el, spans, a, b);
  const underline = commonValue(spans, a, b, 'underline') === true;
  const strike = commonValue(spans, a, b, 'strike') === true;
  const color = commonValue(spans, a, b, 'color') ?? firstColor(el.color);
  const size = commonValue(spans, a, b, 'fontSize') ?? el.fontSize;
  const sizeDraft = useDraft(String(Math.round(size * 100) / 100), (text) => {
    const value = Number.parseFloat(text);
    // After the edit has finished (the editor closing with a size still typed) nothing is selected.
    if (finished.current || !Number.isFinite(value) || value < 1) return false;
    style({ fontSize: value === el.fontSize ? undefined : value });
    return true;
  });
  const linked = commonValue(spans, a, b, 'link');

  function run(command: 'b' | 'i' | 'u' | 'k' | 's') {
    const current = read();
    const [s, e] = currentRange();
    if (command === 'b') style(boldPatch(el, !isBold(el, current, s, e)));
    if (command === 'i') style(italicPatch(el, !isItalic(el, current, s, e)));
    if (command === 'u')
      style({ underline: commonValue(current, s, e, 'underline') === true ? undefined : true });
    if (command === 's') style({ strike: commonValue(current, s, e, 'strike') === true ? undefined : true });
    if (command === 'k') openLink();
  }

  // Buttons keep the editable's selection: they act without taking the focus.
  const keep = (event: JSX.TargetedMouseEvent<HTMLButtonElement>) => event.preventDefault();
  const css = `matrix(${matrix[0]}, ${matrix[1]}, ${matrix[2]}, ${matrix[3]}, ${matrix[4] * zoom}, ${matrix[5] * zoom})`;
  const placed = toolbarPlace(el, matrix, zoom);
  const justify = { top: 'flex-start', middle: 'center', bottom: 'flex-end' }[el.verticalAlign];

  return (
    <div
      ref={wrapper}
      class="pe-rich"
      onFocusOut={(event) => {
        const next = event.relatedTarget;
        if (next instanceof Node && wrapper.current?.contains(next)) return;
        // A native colour picker takes the focus away without a related target: keep editing.
        if (next === null && document.activeElement && wrapper.current?.contains(document.activeElement))
          return;
        finish();
      }}
    >
      <div class="pe-rich-space" style={{ transform: css }}>
        <div
          ref={frame}
          class="pe-text-editor"
          style={{
            left: `${el.x * zoom}px`,
            top: `${el.y * zoom}px`,
            width: `${el.width * zoom}px`,
            height: `${el.height * zoom}px`,
            transform: el.rotation ? `rotate(${el.rotation}deg)` : undefined,
            justifyContent: justify,
            fontFamily: `"${el.fontFamily}", Inter, sans-serif`,
            fontSize: `${el.fontSize * zoom}px`,
            fontWeight: el.fontWeight,
            fontStyle: el.fontStyle,
            color: firstColor(el.color),
            textAlign: el.align,
            lineHeight: String(el.lineHeight),
            letterSpacing: `${el.letterSpacing * zoom}px`,
            textTransform: el.textTransform,
          }}
        />
      </div>
      <div
        class="pe-text-toolbar"
        role="toolbar"
        aria-label="Text style of the selection"
        style={{
          left: `${placed.x}px`,
          top: `${placed.y}px`,
          // Above the text its bottom edge stays put, however tall the link field makes it.
          transform: placed.above ? 'translateY(-100%)' : undefined,
        }}
      >
        {(
          [
            ['b', 'Bold', bold, 'Bold (Ctrl+B)', <b key="b">B</b>],
            ['i', 'Italic', italic, 'Italic (Ctrl+I)', <i key="i">I</i>],
            ['u', 'Underline', underline, 'Underline (Ctrl+U)', <u key="u">U</u>],
            ['s', 'Strikethrough', strike, 'Strikethrough', <s key="s">S</s>],
          ] as const
        ).map(([key, label, pressed, title, glyph]) => (
          <button
            key={key}
            type="button"
            class="pe-icon"
            aria-label={label}
            aria-pressed={pressed}
            title={title}
            onMouseDown={keep}
            onClick={() => run(key)}
          >
            {glyph}
          </button>
        ))}
        <input
          type="color"
          aria-label="Colour of the selected text"
          title="Colour"
          value={/^#[0-9a-f]{6}$/i.test(color) ? color : '#000000'}
          onChange={(event) => style({ color: event.currentTarget.value })}
        />
        <input
          type="number"
          class="pe-size"
          aria-label="Font size of the selected text"
          title="Size"
          min={1}
          max={2000}
          {...sizeDraft}
        />
        <button
          type="button"
          aria-label="Link"
          aria-pressed={linked !== undefined}
          title="Link (Ctrl+K)"
          onMouseDown={keep}
          onClick={() => run('k')}
        >
          Link
        </button>
        <button type="button" title="Finish editing (Escape)" onMouseDown={keep} onClick={finish}>
          Done
        </button>
        {link !== null && (
          <form
            class="pe-link-form"
            onSubmit={(event) => {
              event.preventDefault();
              const url = link.trim();
              if (url !== '' && !linkSchema.safeParse(url).success) {
                store.set({ notice: 'A link is an http(s) or mailto address.' });
                return;
              }
              setLink(null);
              style({ link: url === '' ? undefined : url });
            }}
            onKeyDown={(event) => {
              if (event.key === 'Escape') {
                event.preventDefault();
                event.stopPropagation();
                setLink(null);
                editable.current?.focus();
              }
            }}
          >
            <input
              ref={linkField}
              type="url"
              aria-label="Link address (https or mailto)"
              value={link}
              onInput={(event) => setLink(event.currentTarget.value)}
            />
            <button type="submit">Apply link</button>
            <button
              type="button"
              onClick={() => {
                setLink(null);
                style({ link: undefined });
              }}
            >
              Remove link
            </button>
          </form>
        )}
      </div>
    </div>
  );
}

/** Where the toolbar goes: above the element as drawn on the page (below it near the page top). */
function toolbarPlace(
  el: TextElement,
  matrix: Matrix,
  zoom: number,
): { x: number; y: number; above: boolean } {
  const corners = cornersOf(el).map((p) => apply(matrix, p));
  const left = Math.min(...corners.map((p) => p.x)) * zoom;
  const top = Math.min(...corners.map((p) => p.y)) * zoom;
  const bottom = Math.max(...corners.map((p) => p.y)) * zoom;
  const above = top >= TOOLBAR_ROOM;
  return { x: Math.max(0, left), y: above ? top - 6 : bottom + 6, above };
}
