/**
 * Differences between the raw AI SDK and the wrappers that are kept ON
 * PURPOSE, each with its reason. The conformance suite ignores exactly
 * these (by configuration, observable and path) and nothing else.
 *
 * Anything that differs by accident belongs in `pending.ts` (temporary)
 * and gets fixed; it does not belong here.
 */
import type { DifferencePattern } from './compare.ts';
import type { Wrapped } from './configurations.ts';

export interface KnownDifference extends DifferencePattern {
  readonly id: string;
  readonly configurations: readonly Wrapped[];
  readonly reason: string;
}

export const KNOWN_DIFFERENCES: readonly KnownDifference[] = [
  {
    id: 'result-interventions',
    configurations: ['idle', 'noop', 'handler', 'tools'],
    observable: 'result.(hidden) interventions',
    reason:
      'The wrappers add `result.interventions` (the decision records) to a generateText result: the one addition of the API. It is not enumerable, so spreading or serialising the result leaves it out.',
  },
  {
    id: 'stream-result-interventions',
    configurations: ['idle', 'noop', 'handler', 'tools'],
    observable: 'result.ownProperties',
    path: /^\.interventions$/,
    reason: 'The same `result.interventions` on a streamText result (not enumerable).',
  },
  {
    id: 'guarded-tool-identity',
    configurations: ['noop', 'handler', 'tools'],
    observable: 'log:*',
    path: /\.tools\.[^.]+\.(\$tool|same)$/,
    reason:
      'With tool hooks or handlers registered, the SDK is given guarded copies of the tools (their `execute` runs the hooks), so callbacks that receive the tool set (onStart, onStepStart) see those copies, not the caller\'s objects. Every property of a copy is still compared with the original (`properties`).',
  },
];
