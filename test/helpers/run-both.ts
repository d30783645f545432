/**
 * Runs one call through `interventions.generateText` or
 * `interventions.streamText` (the stream fully consumed) and returns what the
 * caller got the same way for both. A stream that ends with an error rejects
 * with it, as `generateText` does.
 */
import type { ModelMessage, StepResult, ToolSet } from 'ai';
import type { DecisionRecord, Interventions } from '../../src/index.ts';

export const MODES = ['generateText', 'streamText'] as const;
export type Mode = (typeof MODES)[number];
export type CallOptions = Parameters<Interventions['generateText']>[0];
type StreamOptions = Parameters<Interventions['streamText']>[0];

export interface Outcome {
  readonly text: string;
  readonly steps: ReadonlyArray<StepResult<ToolSet>>;
  readonly responseMessages: readonly ModelMessage[];
  readonly content: ReadonlyArray<{ readonly type: string }>;
  readonly decisions: readonly DecisionRecord[];
}

export async function run(interventions: Interventions, mode: Mode, options: CallOptions): Promise<Outcome> {
  if (mode === 'generateText') {
    const result = await interventions.generateText(options);
    return {
      text: result.text,
      steps: result.steps,
      responseMessages: result.responseMessages,
      content: result.content,
      decisions: result.interventions.decisions,
    };
  }
  const errors: unknown[] = [];
  const result = interventions.streamText({
    ...(options as StreamOptions),
    onError: ({ error }: { error: unknown }) => {
      errors.push(error);
    },
  });
  for await (const part of result.fullStream) {
    if (part.type === 'error') errors.push(part.error);
  }
  // the end-of-run observers run in the stream's onEnd, after the last part
  await new Promise<void>((resolve) => setTimeout(resolve, 10));
  if (errors.length > 0) throw errors[0];
  return {
    text: await result.text,
    steps: await result.steps,
    responseMessages: await result.responseMessages,
    content: await result.content,
    decisions: result.interventions.decisions,
  };
}

/** The denial or guidance text the model read for a tool call (its `execution-denied` output). */
export function deniedText(output: unknown): string {
  return (output as { reason?: string } | undefined)?.reason ?? JSON.stringify(output);
}
