/**
 * A green test run prints no warning of the library's (`AIInterventionsWarning`): vitest runs this
 * file first in every test file (`setupFiles`). A library warning that no test asked for fails the
 * test that emitted it, naming its code, instead of being printed; a test about a warning takes the
 * warnings with {@link processWarnings} (`process-warnings.ts`), asserts them, and nothing is printed.
 * Other warnings (Node's own) go to `process.emitWarning` as before.
 */
import { afterAll, afterEach } from 'vitest';

/** The warnings of a test file: who takes them, and those nobody took. */
interface LibraryWarnings {
  readonly takers: Set<(warning: Error) => void>;
  readonly unclaimed: Error[];
}

const key = Symbol.for('ai-interventions.test.library-warnings');
const host = globalThis as { [key]?: LibraryWarnings };

/** This test file's library warnings (a process may run several test files: each starts empty). */
export function libraryWarnings(): LibraryWarnings {
  host[key] ??= { takers: new Set(), unclaimed: [] };
  return host[key];
}

const isLibraryWarning = (warning: unknown): warning is Error => warning instanceof Error && warning.name === 'AIInterventionsWarning';

host[key] = { takers: new Set(), unclaimed: [] };
const emitWarning = process.emitWarning as (warning: string | Error, ...rest: unknown[]) => void;
if (!(emitWarning as { libraryWarnings?: true }).libraryWarnings) {
  const divert = Object.assign(
    (warning: string | Error, ...rest: unknown[]): void => {
      if (!isLibraryWarning(warning)) {
        emitWarning.call(process, warning, ...rest);
        return;
      }
      const { takers, unclaimed } = libraryWarnings();
      if (takers.size === 0) unclaimed.push(warning);
      for (const take of takers) take(warning);
    },
    { libraryWarnings: true as const },
  );
  process.emitWarning = divert as typeof process.emitWarning;
}

function failOnUnclaimed(where: string): void {
  const { unclaimed } = libraryWarnings();
  if (unclaimed.length === 0) return;
  const warnings = unclaimed.splice(0).map((warning) => `[${(warning as { code?: string }).code}] ${warning.message}`);
  throw new Error(
    `${where} emitted ${warnings.length === 1 ? 'a library warning' : `${warnings.length} library warnings`} no test asked for ` +
      '(fix the setup, e.g. approvalLedger: createApprovalLedger() with an approvalSecret, or take it with processWarnings() and assert it):\n' +
      warnings.join('\n'),
  );
}

afterEach(() => failOnUnclaimed('this test'));
afterAll(() => failOnUnclaimed('this test file, after its tests,'));
