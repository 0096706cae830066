/**
 * A small, bounded XML parser for inline SVG: elements, attributes, text, comments, CDATA and
 * processing instructions. It never expands entities beyond the five predefined ones and numeric
 * references, refuses DOCTYPE (entity bombs, external entities) and bounds depth and node count,
 * so hostile markup costs at most linear time and fails with a reason.
 */

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** Concatenated character data directly inside this element. */
  text: string;
}

export class SvgError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'SvgError';
  }
}

export const SVG_MAX_DEPTH = 64;
export const SVG_MAX_NODES = 10_000;

const NAME = /[A-Za-z_:][-A-Za-z0-9_:.]*/y;
const ATTRIBUTE = /\s*([A-Za-z_:][-A-Za-z0-9_:.]*)\s*=\s*("([^"]*)"|'([^']*)')/y;
const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (match, body: string) => {
    if (body[0] === '#') {
      const code =
        body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    const known = PREDEFINED[body.toLowerCase()];
    if (known === undefined) throw new SvgError(`unknown XML entity ${match}`);
    return known;
  });
}

class Parser {
  private pos = 0;
  private nodes = 0;
  private readonly stack: XmlElement[] = [];
  root: XmlElement | null = null;

  constructor(private readonly src: string) {}

  parse(): XmlElement {
    while (this.pos < this.src.length) {
      const lt = this.src.indexOf('<', this.pos);
      if (lt === -1) {
        this.addText(this.src.slice(this.pos));
        break;
      }
      this.addText(this.src.slice(this.pos, lt));
      this.pos = lt;
      this.markup();
    }
    if (this.stack.length > 0) throw new SvgError(`unclosed <${this.stack.at(-1)?.name}>`);
    if (!this.root) throw new SvgError('no root element');
    return this.root;
  }

  private addText(text: string): void {
    const top = this.stack.at(-1);
    if (top && text.length > 0) top.text += decodeEntities(text);
  }

  private skipPast(terminator: string, what: string): void {
    const end = this.src.indexOf(terminator, this.pos);
    if (end === -1) throw new SvgError(`unterminated ${what}`);
    this.pos = end + terminator.length;
  }

  private markup(): void {
    const rest = this.src.startsWith.bind(this.src);
    if (rest('<!--', this.pos)) {
      this.skipPast('-->', 'comment');
      return;
    }
    if (rest('<![CDATA[', this.pos)) {
      const end = this.src.indexOf(']]>', this.pos);
      if (end === -1) throw new SvgError('unterminated CDATA');
      const top = this.stack.at(-1);
      if (top) top.text += this.src.slice(this.pos + 9, end);
      this.pos = end + 3;
      return;
    }
    if (rest('<?', this.pos)) this.skipPast('?>', 'processing instruction');
    else if (rest('<!', this.pos)) throw new SvgError('DOCTYPE and entity declarations are not allowed');
    else if (rest('</', this.pos)) this.closeTag();
    else this.openTag();
  }

  private readName(): string {
    NAME.lastIndex = this.pos;
    const match = NAME.exec(this.src);
    if (!match) throw new SvgError(`malformed tag at offset ${this.pos}`);
    this.pos = NAME.lastIndex;
    return match[0];
  }

  private openTag(): void {
    this.pos += 1;
    const element: XmlElement = { name: this.readName(), attrs: {}, children: [], text: '' };
    if (++this.nodes > SVG_MAX_NODES) throw new SvgError(`more than ${SVG_MAX_NODES} elements`);
    for (;;) {
      ATTRIBUTE.lastIndex = this.pos;
      const match = ATTRIBUTE.exec(this.src);
      if (!match?.[1]) break;
      element.attrs[match[1]] = decodeEntities(match[3] ?? match[4] ?? '');
      this.pos = ATTRIBUTE.lastIndex;
    }
    while (/\s/.test(this.src[this.pos] ?? '')) this.pos++;
    const selfClosing = this.src.startsWith('/>', this.pos);
    if (!selfClosing && this.src[this.pos] !== '>') throw new SvgError(`malformed <${element.name}> tag`);
    this.pos += selfClosing ? 2 : 1;
    const parent = this.stack.at(-1);
    if (parent) parent.children.push(element);
    else if (this.root) throw new SvgError('more than one root element');
    else this.root = element;
    if (selfClosing) return;
    if (this.stack.length >= SVG_MAX_DEPTH) throw new SvgError(`nesting deeper than ${SVG_MAX_DEPTH}`);
    this.stack.push(element);
  }

  private closeTag(): void {
    this.pos += 2;
    const name = this.readName();
    this.skipPast('>', 'closing tag');
    const open = this.stack.pop();
    if (open?.name !== name) throw new SvgError(`</${name}> does not close <${open?.name ?? 'nothing'}>`);
  }
}

/** Parses markup that holds one `<svg>` root (leading/trailing prolog and comments allowed). */
export function parseXml(markup: string): XmlElement {
  return new Parser(markup).parse();
}
