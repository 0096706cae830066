/**
 * Which editor the shell mounts: the real one from studio/src/editor/index.ts when that module
 * exists, else the stand-in. `import.meta.glob` resolves at build time and yields nothing for a
 * missing file, so the shell builds before and after the editor lands without an edit here.
 */
import type { MountEditor } from '../editor/contract.ts';
import { mountStandInEditor } from './standin-editor.ts';

const modules = import.meta.glob<{ mountEditor?: MountEditor }>('../editor/index.ts', { eager: true });

export const mountEditor: MountEditor = Object.values(modules)[0]?.mountEditor ?? mountStandInEditor;
export const usingStandIn = mountEditor === mountStandInEditor;
