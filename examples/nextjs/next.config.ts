import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NextConfig } from 'next';

const here = dirname(fileURLToPath(import.meta.url));
// `ai-interventions` is this repository (`"file:../.."`, a symlink to its
// built dist/): Turbopack and output tracing must reach files outside this folder
const repositoryRoot = resolve(here, '../..');

const nextConfig: NextConfig = {
  turbopack: {
    root: repositoryRoot,
    // the library resolves its peer `ai` from the repository's own node_modules
    // (it is a symlink): make it use this app's copy, so there is only one
    resolveAlias: {
      ai: './node_modules/ai/dist/index.js',
      'ai/internal': './node_modules/ai/dist/internal/index.js',
      '@ai-sdk/provider-utils': './node_modules/@ai-sdk/provider-utils/dist/index.js',
    },
  },
  outputFileTracingRoot: repositoryRoot,
};

export default nextConfig;
