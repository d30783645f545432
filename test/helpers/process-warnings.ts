/**
 * The warnings `process.emitWarning` emits while a test file runs, cleared
 * after each test, and a way to let them (next tick) and the `onStatus`
 * hooks settle.
 */
import { afterEach } from 'vitest';

export function processWarnings(): { readonly warnings: Error[]; readonly settled: () => Promise<unknown> } {
  const warnings: Error[] = [];
  process.on('warning', (warning: Error) => warnings.push(warning));
  afterEach(() => {
    warnings.length = 0;
  });
  return { warnings, settled: () => new Promise((resolve) => setImmediate(resolve)) };
}
