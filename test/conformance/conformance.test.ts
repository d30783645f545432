/**
 * Differential conformance: a wrapped call with nothing registered, or with
 * handlers and hooks that decide nothing, behaves exactly like the raw AI
 * SDK call. Each script runs through the raw SDK (the reference) and every
 * wrapper configuration (`configurations.ts`); everything a caller can
 * observe is compared (`run-script.ts`, `compare.ts`), except the
 * deliberate differences (`known-differences.ts`) and, temporarily, the
 * pending defects (`pending.ts`).
 *
 * CONFORMANCE_RUNS sets the number of random scripts per configuration and
 * mode (default 25; `npm run test:conformance` runs 1000), CONFORMANCE_SEED
 * the seed (default fixed). A failure prints the seed, the path and the
 * script (fast-check's counterexample), and what differed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scriptArbitrary } from './arbitraries.ts';
import { CASES } from './cases.ts';
import { excludedFeatures, judge } from './check.ts';
import { compare, describeFindings, type Finding } from './compare.ts';
import { DESCRIPTIONS, MODES, type Mode, type Runner, runnerFor, WRAPPED, type Wrapped } from './configurations.ts';
import { type Observation, observe } from './run-script.ts';
import type { Script } from './script.ts';

const RUNS = Number(process.env.CONFORMANCE_RUNS ?? 25);
const SEED = Number(process.env.CONFORMANCE_SEED ?? 20_250_710);
const TIMEOUT_MS = Math.max(60_000, RUNS * 2_000);

/** The raw run of a script in a mode, shared by the configurations compared with it. */
const rawRuns = new Map<string, Promise<Observation>>();
function rawRun(key: string, script: Script, mode: Mode): Promise<Observation> {
  let run = rawRuns.get(key);
  if (run === undefined) rawRuns.set(key, (run = observe(script, mode, runnerFor('raw'))));
  return run;
}

function report(findings: readonly Finding[]): string {
  return `the wrapped call differs from the raw AI SDK call:\n${describeFindings(findings)}`;
}

describe('interventions.generateText / interventions.streamText', () => {
  describe('when a fixed script runs (conformance with the raw AI SDK)', () => {
    for (const { id, about, script, modes } of CASES) {
      describe(`${id}: ${about}`, () => {
        for (const mode of modes ?? MODES) {
          for (const configuration of WRAPPED) {
            it(`should behave like the raw ${mode} (${configuration})`, async () => {
              const raw = await rawRun(`${id}:${mode}`, script, mode);
              const wrapped = await observe(script, mode, runnerFor(configuration));
              const verdict = judge(raw, wrapped, { configuration, mode, caseId: id });
              expect(verdict.unexpected, report(verdict.unexpected)).toEqual([]);
              expect(
                verdict.fixed.map((entry) => entry.id),
                'these pending differences no longer show in this case: remove them from test/conformance/pending.ts (or from its shownBy)',
              ).toEqual([]);
            });
          }
        }
      });
    }
  });

  describe('when random scripts run (conformance with the raw AI SDK)', () => {
    for (const configuration of WRAPPED) {
      for (const mode of MODES) {
        it(
          `should behave like the raw ${mode}: ${DESCRIPTIONS[configuration]} (${configuration})`,
          async () => {
            await checkRandom(configuration, mode);
          },
          TIMEOUT_MS,
        );
      }
    }
  });

  describe('when the comparison itself is checked', () => {
    it('should see no difference between two raw runs of the same scripts (the normalization is enough)', async () => {
      for (const { script, modes } of CASES) {
        for (const mode of modes ?? MODES) {
          const findings = compare(await observe(script, mode, runnerFor('raw')), await observe(script, mode, runnerFor('raw')));
          expect(findings, report(findings)).toEqual([]);
        }
      }
    });

    it('should catch a wrapper that changes a single text delta', async () => {
      const tampering: Runner = {
        generateText: (options) => runnerFor('raw').generateText(options),
        streamText: (options) =>
          runnerFor('raw').streamText({
            ...options,
            experimental_transform: () =>
              new TransformStream<{ type: string; text?: string }, { type: string; text?: string }>({
                transform(part, controller) {
                  controller.enqueue(part.type === 'text-delta' && part.text === 'lo ' ? { ...part, text: 'LO ' } : part);
                },
              }),
          }),
      };
      const script = caseScript('text-deltas');
      const findings = compare(await observe(script, 'streamText', runnerFor('raw')), await observe(script, 'streamText', tampering));
      expect(findings.map((finding) => finding.observable)).toEqual(
        expect.arrayContaining(['stream', 'textStream', 'uiStream', 'result.text']),
      );
    });

    it('should catch a wrapper that gives a tool an abort signal the caller did not give', async () => {
      const signalling: Runner = {
        generateText: (options) => runnerFor('raw').generateText({ ...options, abortSignal: new AbortController().signal }),
        streamText: (options) => runnerFor('raw').streamText(options),
      };
      const script = caseScript('no-caller-signal');
      const findings = compare(await observe(script, 'generateText', runnerFor('raw')), await observe(script, 'generateText', signalling));
      expect(findings.some((finding) => finding.observable === 'log:execute' && finding.path.endsWith('.options.abortSignal'))).toBe(true);
    });

    it('should catch a wrapper that loses a prototype method of a tool (through the random property)', async () => {
      // a "wrapper" that spreads every tool: the property must find a script where that shows
      const spreading: Runner = {
        generateText: (options) => runnerFor('raw').generateText(spreadTools(options)),
        streamText: (options) => runnerFor('raw').streamText(spreadTools(options)),
      };
      const result = await fc.check(
        fc.asyncProperty(scriptArbitrary(), async (script) => {
          const findings = compare(
            await observe(script, 'generateText', runnerFor('raw')),
            await observe(script, 'generateText', spreading),
          );
          return findings.length === 0;
        }),
        { numRuns: 200, seed: SEED },
      );
      expect(result.failed).toBe(true);
    }, 120_000);

    it('should fail a fixed case whose pending difference is gone (pending entries cannot go stale)', async () => {
      const script = caseScript('text-deltas');
      const raw = await observe(script, 'streamText', runnerFor('raw'));
      const stale = {
        id: 'stale-entry',
        what: 'a difference this case no longer shows',
        cause: 'none',
        configurations: ['handler'],
        modes: ['streamText'],
        differences: [{ observable: 'stream' }],
        shownBy: ['text-deltas'],
        scope: 'shown-by',
      } as const;
      const verdict = judge(raw, raw, { configuration: 'handler', mode: 'streamText', caseId: 'text-deltas' }, { pending: [stale] });
      expect(verdict.fixed.map((entry) => entry.id)).toEqual(['stale-entry']);
    });
  });
});

async function checkRandom(configuration: Wrapped, mode: Mode): Promise<void> {
  const excluded = excludedFeatures(configuration, mode);
  let failure = '';
  const result = await fc.check(
    fc.asyncProperty(scriptArbitrary(excluded), async (script) => {
      const raw = await observe(script, mode, runnerFor('raw'));
      const wrapped = await observe(script, mode, runnerFor(configuration));
      const { unexpected } = judge(raw, wrapped, { configuration, mode });
      if (unexpected.length > 0) failure = report(unexpected);
      return unexpected.length === 0;
    }),
    { numRuns: RUNS, seed: SEED },
  );
  if (result.failed) {
    const excludedText = excluded.size === 0 ? 'none' : [...excluded].join(', ');
    expect.fail(
      `${configuration} / ${mode}: a random script differs (seed ${result.seed}, path "${result.counterexamplePath}", excluded features: ${excludedText}).\n` +
        `Reproduce: CONFORMANCE_SEED=${result.seed} npx vitest run test/conformance\n` +
        `Script: ${fc.stringify(result.counterexample?.[0])}\n${failure}`,
    );
  }
}

function caseScript(id: string): Script {
  const found = CASES.find((entry) => entry.id === id);
  if (found === undefined) throw new Error(`no case ${id}`);
  return found.script;
}

function spreadTools(options: Record<string, unknown>): Record<string, unknown> {
  const tools = options.tools as Record<string, object> | undefined;
  if (tools === undefined) return options;
  return { ...options, tools: Object.fromEntries(Object.entries(tools).map(([name, tool]) => [name, { ...tool }])) };
}
