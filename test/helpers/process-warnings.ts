/**
 * The library's warnings (`AIInterventionsWarning`) emitted while a test file runs, for a test about
 * them: taken from `process.emitWarning` before Node prints them (see `library-warnings.ts`), cleared
 * after each test; and a way to let the `onStatus` hooks settle.
 */
import { afterAll, afterEach, onTestFinished } from 'vitest';
import { libraryWarnings } from './library-warnings.ts';

export function processWarnings(): { readonly warnings: Error[]; readonly settled: () => Promise<unknown> } {
  const warnings: Error[] = [];
  const take = (warning: Error) => void warnings.push(warning);
  libraryWarnings().takers.add(take);
  afterEach(() => {
    warnings.length = 0;
  });
  afterAll(() => {
    libraryWarnings().takers.delete(take);
  });
  return { warnings, settled: () => new Promise((resolve) => setImmediate(resolve)) };
}

/**
 * Inside a test about a warning: the library warnings the test emits from here on, taken before Node
 * prints them (until the test ends). A warning is emitted once per process and code (or scope): the
 * first test of a file to cause it sees it.
 */
export function takeWarnings(): Error[] {
  const taken: Error[] = [];
  const take = (warning: Error) => void taken.push(warning);
  libraryWarnings().takers.add(take);
  onTestFinished(() => {
    libraryWarnings().takers.delete(take);
  });
  return taken;
}
