/**
 * takumi (`@takumi-rs/core`, Rust, no browser) served over HTTP from its own process
 * (protocol.ts), drawing the benchmark post's HTML (render-html.ts chromiumHtml) as a takumi
 * service would: one warm `Renderer` with Inter 400/700 registered, the HTML parsed once at start,
 * and for each request that tree with the headline's text and the photo's src replaced (as a JSX
 * template would fill in its props), rendered with the photo's bytes passed as the render's image.
 *
 * The HTML is adapted for takumi in two ways, neither changing the picture: the @font-face rules
 * go (their fonts are the files registered through the API, so takumi would not parse 700 KB of
 * data URLs each render), and the inline SVG logo becomes an <img> of that SVG (takumi's HTML
 * reader takes no inline SVG).
 */
import type { Node } from '@takumi-rs/core';
import { fromHtml } from '@takumi-rs/helpers/html';
import { chromiumHtml } from '../render-html.ts';
import { takumiWithInter } from '../video-peers.ts';
import { type PeerRenderer, type PeerRenderRequest, type Photo, servePeer } from './protocol.ts';

/** The post's HTML as takumi reads it, its photo's src a placeholder replaced per render. */
function takumiHtml(): string {
  const html = chromiumHtml('photo:placeholder').replace(/@font-face \{[^}]*\}\n/g, '');
  return html.replace(
    /<div id="logo" class="abs">(<svg[\s\S]*?<\/svg>)<\/div>/,
    (_, svg: string) =>
      `<img id="logo" class="abs" src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}">`,
  );
}

type TreeNode = Record<string, unknown> & { id?: string; children?: TreeNode[] };

/** The tree with the element `id`'s own fields changed: copies only the path down to it. */
function withChanged(node: TreeNode, id: string, change: (node: TreeNode) => TreeNode): TreeNode {
  if (node.id === id) return change(node);
  if (!node.children) return node;
  return { ...node, children: node.children.map((child) => withChanged(child, id, change)) };
}

async function takumiRenderer(): Promise<PeerRenderer> {
  const renderer = await takumiWithInter();
  const { node, css } = fromHtml(takumiHtml());
  const tree = node as unknown as TreeNode;

  return {
    async render(request: PeerRenderRequest, photo: Photo) {
      // Each asset its own src: a new photo is decoded for its render; takumi's own decoded-image
      // cache (keyed by src) is all that spares the same photo a second decode.
      const src = `asset:${photo.id}`;
      let page = withChanged(tree, 'headline', (n) => ({ ...n, text: request.headline }));
      page = withChanged(page, 'photo', (n) => ({ ...n, src, attributes: { src } }));
      return renderer.render(page as unknown as Node, {
        width: 1080,
        height: 1080,
        format: request.format,
        ...(request.format === 'jpeg' ? { quality: request.quality ?? 90 } : {}),
        css,
        images: [{ src, data: photo.bytes }],
      });
    },
    close: async () => undefined,
  };
}

await servePeer(async ({ defaultPhoto }) => {
  const renderer = await takumiRenderer();
  // Warm: the first render of each format pays for takumi's lazy set-up, not the benchmark.
  for (const format of ['png', 'jpeg'] as const)
    await renderer.render({ format, headline: 'Warming up', quality: 90 }, defaultPhoto);
  return renderer;
});
