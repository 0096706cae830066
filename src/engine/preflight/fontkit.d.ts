// The part of fontkit (https://github.com/foliojs/fontkit) preflight uses: a font's character set.
declare module 'fontkit' {
  export interface Font {
    characterSet: number[];
  }
  export interface FontCollection {
    fonts: Font[];
  }
  export function create(buffer: Buffer): Font | FontCollection;
}
