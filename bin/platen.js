#!/usr/bin/env node
// The `platen` command. Source runs through tsx (no build step), like `npm start`.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/index.ts');
