/**
 * Compares a wrapped run with the raw one, observable by observable, so a
 * difference in one place (an extra log entry) does not cascade into
 * everything after it.
 *
 * Observables of a phase: `threw`, `input`, `stream`, `textStream`,
 * `uiStream`, `partialOutputStream`, `result.<field>` (every field of the
 * result), `log order` (the sequence of logged events but the
 * stream-timed ones), `log order with stream timing` (all of them), and
 * `log:<event>` (the arguments of every call of one callback, tool
 * function or model method, in order).
 */
import { type Difference, diff } from './diff.ts';
import type { Observation, PhaseObservation } from './run-script.ts';

export interface Finding extends Difference {
  readonly phase: number;
  readonly observable: string;
}

/**
 * A difference pattern: an observable (`*` matches anything), optionally a
 * path inside it, and optionally a value one side holds there (its JSON),
 * e.g. an event name in `log order`.
 */
export interface DifferencePattern {
  readonly observable: string;
  readonly path?: RegExp;
  readonly value?: RegExp;
}

/** Callbacks whose place among the others follows when stream parts are delivered. */
const STREAM_TIMED = new Set([
  'onChunk',
  'onLanguageModelCallEnd',
  'onError',
  'onInputStart',
  'onInputDelta',
  'onInputAvailable',
  'toolApproval',
  'needsApproval',
  'repairToolCall',
]);

export function observablesOf(phase: PhaseObservation, dropEvents: ReadonlySet<string> = new Set()): Map<string, unknown> {
  const observables = new Map<string, unknown>();
  observables.set('input', phase.input);
  if ('threw' in phase) observables.set('threw', phase.threw);
  if (phase.result !== undefined) {
    for (const [field, value] of Object.entries(phase.result as Record<string, unknown>)) {
      observables.set(`result.${field}`, value);
    }
  }
  if (phase.stream !== undefined) observables.set('stream', phase.stream);
  if (phase.textStream !== undefined) observables.set('textStream', phase.textStream);
  if (phase.uiStream !== undefined) observables.set('uiStream', phase.uiStream);
  if (phase.partialOutputStream !== undefined) observables.set('partialOutputStream', phase.partialOutputStream);
  if (phase.fields !== undefined) {
    for (const [field, value] of Object.entries(phase.fields as Record<string, unknown>)) {
      observables.set(`result.${field}`, value);
    }
  }
  const log = phase.log.filter(([event]) => !dropEvents.has(event));
  // where stream-timed callbacks fall among the others is delivery timing (see known-differences.ts):
  // the order of everything else, and each callback's own sequence, are compared on their own
  // (generateText has no stream: its order is compared whole)
  const streamed = phase.stream !== undefined;
  observables.set(
    'log order',
    log.filter(([event]) => !streamed || !STREAM_TIMED.has(event)).map(([event]) => event),
  );
  observables.set(
    'log order with stream timing',
    log.map(([event]) => event),
  );
  const byEvent = new Map<string, unknown[]>();
  for (const [event, payload] of log) {
    let list = byEvent.get(event);
    if (list === undefined) byEvent.set(event, (list = []));
    list.push(payload);
  }
  for (const [event, payloads] of byEvent) {
    if (event !== 'onChunk') {
      observables.set(`log:${event}`, payloads);
      continue;
    }
    // the chunks, whatever the order the SDK reports them in (it interleaves the ones it makes, such as
    // its own error chunks, with the provider's by delivery timing); the order is its own observable
    observables.set('log:onChunk', [...payloads].sort(byJson));
    observables.set('log:onChunk order', payloads);
  }
  return observables;
}

function byJson(a: unknown, b: unknown): number {
  const left = JSON.stringify(a) ?? '';
  const right = JSON.stringify(b) ?? '';
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Every difference between the raw observation and a wrapped one (`dropEvents`: log events left out of both). */
export function compare(raw: Observation, wrapped: Observation, dropEvents: ReadonlySet<string> = new Set()): Finding[] {
  const findings: Finding[] = [];
  if (raw.phases.length !== wrapped.phases.length) {
    findings.push({
      phase: Math.min(raw.phases.length, wrapped.phases.length),
      observable: 'phases',
      path: 'phases.length',
      expected: raw.phases.length,
      actual: wrapped.phases.length,
    });
  }
  const phases = Math.min(raw.phases.length, wrapped.phases.length);
  for (let phase = 0; phase < phases; phase++) {
    const expected = observablesOf(raw.phases[phase] as PhaseObservation, dropEvents);
    const actual = observablesOf(wrapped.phases[phase] as PhaseObservation, dropEvents);
    const names = new Set([...expected.keys(), ...actual.keys()]);
    for (const observable of names) {
      const differences = !expected.has(observable)
        ? [{ path: '', expected: '<missing>', actual: actual.get(observable) }]
        : !actual.has(observable)
          ? [{ path: '', expected: expected.get(observable), actual: '<missing>' }]
          : diff(expected.get(observable), actual.get(observable));
      for (const difference of differences) findings.push({ ...difference, phase, observable });
    }
  }
  return findings;
}

export function matches(pattern: DifferencePattern, finding: Finding): boolean {
  if (!globMatches(pattern.observable, finding.observable)) return false;
  if (pattern.path !== undefined && !pattern.path.test(finding.path)) return false;
  const value = pattern.value;
  return value === undefined || value.test(JSON.stringify(finding.expected) ?? '') || value.test(JSON.stringify(finding.actual) ?? '');
}

function globMatches(glob: string, name: string): boolean {
  if (!glob.includes('*')) return glob === name;
  const pattern = new RegExp(`^${glob.split('*').map(escape).join('.*')}$`);
  return pattern.test(name);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A readable account of findings, grouped by phase and observable (the first `limit`). */
export function describeFindings(findings: readonly Finding[], limit = 20): string {
  const lines: string[] = [];
  for (const finding of findings.slice(0, limit)) {
    lines.push(
      `  [phase ${finding.phase}] ${finding.observable} ${finding.path || '(whole)'}\n` +
        `      raw:     ${show(finding.expected)}\n` +
        `      wrapped: ${show(finding.actual)}`,
    );
  }
  if (findings.length > limit) lines.push(`  … and ${findings.length - limit} more`);
  return lines.join('\n');
}

/** Which observables differ (deduplicated), for reports. */
export function differingObservables(findings: readonly Finding[]): string[] {
  return [...new Set(findings.map((finding) => `[${finding.phase}] ${finding.observable}`))];
}

function show(value: unknown): string {
  const text = value === undefined ? 'undefined' : JSON.stringify(value);
  return text.length > 400 ? `${text.slice(0, 400)}…` : text;
}
