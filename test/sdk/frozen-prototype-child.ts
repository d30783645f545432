/**
 * A process whose `Object.prototype` is frozen (as hardened JavaScript,
 * SES's `lockdown()`, freezes it), run by guard-tool-set.test.ts
 * (`spawnChild`): on `run`, a tool set with tools named `toString` and
 * `constructor` goes through the raw SDK and through
 * `interventions.generateText` with an `afterToolCall` handler (the run
 * guards every tool of the set); sends `ran` with what each ran (and the
 * error, if one ended a call).
 */
import { generateText, isStepCount, tool } from 'ai';
import { z } from 'zod';
import { createInterventions, InterventionActions } from '../../src/index.ts';
import { connectParent } from '../helpers/child-process.ts';
import { scriptedModel, step, text, toolCall } from '../helpers/scripted-model.ts';

export type FrozenChildCommand = { readonly type: 'run' };
export type FrozenChildMessage = {
  readonly type: 'ran';
  readonly raw: readonly string[];
  readonly ours: readonly string[];
  readonly afterToolCall: number;
  readonly error?: string;
};

const parent = connectParent<FrozenChildCommand, FrozenChildMessage>();
const ran: string[] = [];
const named = (name: string) => tool({ inputSchema: z.object({}), execute: async () => (ran.push(name), name) });
const tools = { toString: named('toString'), constructor: named('constructor') };
const model = () => scriptedModel(step(toolCall('c1', 'toString', {}), toolCall('c2', 'constructor', {})), step(text('done')));
let afterToolCall = 0;
const interventions = createInterventions({
  handlers: [{ name: 'audit', afterToolCall: () => (afterToolCall++, InterventionActions.proceed()) }],
});

await parent.receive('run');
Object.freeze(Object.prototype);
let raw: string[] = [];
try {
  await generateText({ model: model(), tools, stopWhen: isStepCount(2), prompt: 'x' });
  raw = ran.splice(0);
  await interventions.generateText({ model: model(), tools, stopWhen: isStepCount(2), prompt: 'x' });
  parent.send({ type: 'ran', raw, ours: ran.splice(0), afterToolCall });
} catch (error) {
  parent.send({ type: 'ran', raw, ours: ran.splice(0), afterToolCall, error: String(error) });
}
