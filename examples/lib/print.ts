/**
 * Readable console output for the examples: for each step, what the model
 * asked, what the interventions decided, and what the model was told; then
 * the final text.
 */
import type { ModelMessage, StepResult, ToolSet } from 'ai';
import type { DecisionRecord, InterventionsReport } from 'ai-interventions';

/** What `printRun` reads: a `generateText` result (or a stream's awaited values). */
export interface PrintableRun {
  readonly steps: ReadonlyArray<StepResult<ToolSet>>;
  readonly text: string;
  readonly responseMessages: readonly ModelMessage[];
  readonly interventions: InterventionsReport;
}

/** A section title. */
export function heading(title: string): void {
  console.log(`\n=== ${title} ${'='.repeat(Math.max(3, 72 - title.length))}`);
}

/** What the user (or the script, on the user's behalf) says. */
export function user(text: string): void {
  console.log(`\nuser: ${text}`);
}

/** A line of narration. */
export function note(text: string): void {
  console.log(`  -- ${text}`);
}

/** Prints a run step by step. */
export function printRun(run: PrintableRun): void {
  const { decisions } = run.interventions;

  // decided before the first step: beforeInvocation, or approved calls on resume
  const early = decisions.filter((record) => record.stepNumber === undefined);
  const resumed = resumedToolResults(run.responseMessages);
  if (early.length > 0 || resumed.length > 0) {
    console.log('  before the first model call');
    for (const line of describeDecisions(early)) console.log(`    decided : ${line}`);
    for (const told of resumed) console.log(`    told    : ${told}`);
  }

  for (const step of run.steps) {
    console.log(`  step ${step.stepNumber}`);
    for (const part of step.content) {
      if (part.type === 'text' && part.text.trim() !== '') console.log(`    said    : ${quote(part.text)}`);
      if (part.type === 'tool-call') console.log(`    asked   : ${part.toolName}(${compact(part.input)})`);
    }
    for (const line of describeDecisions(decisions.filter((record) => record.stepNumber === step.stepNumber))) {
      console.log(`    decided : ${line}`);
    }
    for (const part of step.content) {
      switch (part.type) {
        case 'tool-result':
          console.log(`    told    : ${part.toolName} → ${compact(part.output)}`);
          break;
        case 'tool-error':
          console.log(`    told    : ${part.toolName} failed → ${errorText(part.error)}`);
          break;
        case 'tool-approval-response':
          if (!part.approved) console.log(`    told    : ${part.toolCall.toolName} → ${quote(part.reason ?? 'denied')}`);
          break;
        case 'tool-approval-request':
          if (!part.isAutomatic) {
            console.log(`    paused  : ${part.toolCall.toolName} waits for a human: ${quote(part.reason ?? '')}`);
          }
          break;
      }
    }
  }
  if (run.text !== '') console.log(`  final text: ${quote(run.text)}`);
}

/**
 * Decision records as lines: each action that did something on its own
 * line, and the handlers that let the same thing proceed on one line.
 */
export function describeDecisions(records: readonly DecisionRecord[]): string[] {
  const lines: Array<string | { target: string; handlers: string[] }> = [];
  const proceeds = new Map<string, { target: string; handlers: string[] }>();
  for (const record of records) {
    if (record.action === 'proceed' && record.error === undefined) {
      const key = `${record.lifecycle}#${record.toolCallId ?? ''}`;
      let group = proceeds.get(key);
      if (group === undefined) {
        group = { target: targetOf(record), handlers: [] };
        proceeds.set(key, group);
        lines.push(group);
      }
      group.handlers.push(record.handler);
      continue;
    }
    lines.push(describeDecision(record));
  }
  return lines.map((line) =>
    typeof line === 'string' ? line : `[${line.handlers.join(', ')}] proceed (${line.target})`,
  );
}

/** One decision record, as a line. */
export function describeDecision(record: DecisionRecord): string {
  const target = targetOf(record);
  const detail = record.reason ?? record.feedback ?? record.prompt;
  const flags = [
    record.mode === 'shadow' ? 'shadow' : undefined,
    !record.enforced && record.mode !== 'shadow' ? 'not enforced' : undefined,
    record.warning,
  ].filter((flag) => flag !== undefined);
  const effect =
    record.action === 'guide' && record.enforced && record.lifecycle === 'afterModelCall'
      ? ' (that response was discarded; the model was retried with this feedback)'
      : record.action === 'guide' && record.enforced && record.lifecycle === 'beforeModelCall'
        ? ' (sent to the model as a user message)'
        : '';
  return (
    `[${record.handler}] ${record.action} (${target})` +
    (detail === undefined ? '' : `: ${quote(detail)}`) +
    effect +
    (flags.length === 0 ? '' : ` [${flags.join('; ')}]`)
  );
}

let failures = 0;

/**
 * Checks something the example promises. A failed check is printed and
 * makes the process exit non-zero (so CI catches regressions), but the
 * example keeps going to show the rest.
 */
export function check(ok: boolean, what: string): void {
  console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) {
    failures++;
    process.exitCode = 1;
  }
}

/** Prints the verdict of the checks; call it last. */
export function summary(): void {
  console.log(failures === 0 ? '\nAll checks passed.' : `\n${failures} check(s) FAILED.`);
}

function targetOf(record: DecisionRecord): string {
  return record.toolName === undefined ? record.lifecycle : `${record.lifecycle} ${record.toolName}`;
}

/** The tool results a resumed run starts with (approved calls executed before step 0). */
function resumedToolResults(messages: readonly ModelMessage[]): string[] {
  const first = messages[0];
  if (first?.role !== 'tool') return [];
  return first.content.flatMap((part) =>
    part.type === 'tool-result' ? [`${part.toolName} → ${compact(outputValue(part.output))}`] : [],
  );
}

/** The value of a tool result as sent to the model (`{ type, value }` or `{ type, reason }`). */
function outputValue(output: { readonly type: string }): unknown {
  if ('value' in output) return output.value;
  if ('reason' in output) return output.reason;
  return output;
}

function compact(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return shorten(text ?? String(value));
}

function quote(text: string): string {
  return JSON.stringify(shorten(text));
}

function shorten(text: string): string {
  return text.length > 300 ? `${text.slice(0, 297)}...` : text;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
