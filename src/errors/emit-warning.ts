import type { InterventionsWarning } from './interventions-warning.ts';

/** The warnings already emitted in this process, by key: a runtime (or a run) per request must not flood the log. */
const emitted = new Set<string>();

/**
 * Emits `warning` once per process and `key` (its code unless said
 * otherwise): `process.emitWarning`, or `console.warn` where there is no
 * `process`.
 */
export function emitWarningOnce(warning: InterventionsWarning, key: string = warning.code): void {
  if (emitted.has(key)) return;
  emitted.add(key);
  const host = (globalThis as { process?: { emitWarning?: (warning: Error) => void } }).process;
  if (typeof host?.emitWarning === 'function') host.emitWarning(warning);
  else console.warn(`${warning.name} [${warning.code}]: ${warning.message}`);
}
