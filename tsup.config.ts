import { defineConfig } from 'tsup';

/** The package's entry points (package.json `exports`). */
const entry = {
  index: 'src/index.ts',
  'testing/index': 'src/testing/index.ts',
  'client/index': 'src/client/index.ts',
  'telemetry/index': 'src/builtins/telemetry.ts',
};

export default defineConfig({
  entry: {
    ...entry,
    // src/index.ts a second time, as an entry nothing imports (and the tarball leaves out): with code
    // splitting, code reached by two entries moves out of dist/index.js into chunks grouped by the
    // entries that reach it, so the runtime (which /testing reaches too) and the add-ons only the main
    // entry exports (built-ins, redaction, trails, queues, stores) land in separate files. An app that
    // imports the runtime alone then drops the add-ons' file whole (sideEffects: false) with the
    // statements a bundler cannot drop one by one (options tables, patterns, error classes):
    // about 0.8 kB gzipped of the smallest import (`npm run size`)
    'internal/split': 'src/index.ts',
  },
  format: ['esm'],
  splitting: true,
  dts: { entry },
  // no source maps: dist is readable, unminified ESM, and maps would ship src/ (sourcesContent) a second time
  sourcemap: false,
  clean: true,
  target: 'node22',
});
