/**
 * Redaction changes what people see, never what goes back to the provider:
 * a tool loop whose reasoning the redactors change (an SSN in the thinking)
 * sends the same continuation wrapped as raw, through the REAL
 * `@ai-sdk/anthropic` (extended thinking: the signed `thinking` block before
 * the `tool_use`) and `@ai-sdk/openai` Responses (`store` on: the
 * `item_reference` to the reasoning item; `store` off: the reasoning item
 * itself), both wrappers, on a loopback server that rejects a continuation
 * without them, as the real APIs do. With a no-op handler and no redaction,
 * every request is the raw SDK's.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, isStepCount, type LanguageModel, type ModelMessage, streamText, tool } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createInterventions, defineHandler, InterventionActions, redactPii } from '../../src/index.ts';
import { type ReasoningServer, type ReasoningTurn, startReasoningServer } from '../helpers/reasoning-wire-server.ts';

const SSN = '123-45-6789';
const THINKING = `The user asks about the customer with SSN ${SSN}; I should look the record up.`;

const PROVIDERS = {
  anthropic: {
    model: (baseURL: string): LanguageModel => createAnthropic({ baseURL, apiKey: 'test' })('claude-sonnet-4-5'),
    providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 1024 } } },
  },
  responses: {
    model: (baseURL: string): LanguageModel => createOpenAI({ baseURL, apiKey: 'test' }).responses('gpt-5'),
    providerOptions: { openai: { store: true, reasoningSummary: 'auto' } },
  },
  'responses (store off)': {
    model: (baseURL: string): LanguageModel => createOpenAI({ baseURL, apiKey: 'test' }).responses('gpt-5'),
    providerOptions: { openai: { store: false, reasoningSummary: 'auto' } },
  },
} as const;

const servers: ReasoningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** How the wrapped run is set up: a no-op handler, redaction alone (a stream redacted as it comes), or with a hook holding each step whole. */
type Setup = 'no redaction' | 'redaction' | 'redaction, step held';

const ONE_LOOKUP: readonly ReasoningTurn[] = [
  { reasoning: THINKING, call: { name: 'lookup', input: { customer: 'c-1' } } },
  { text: 'The customer is on the gold plan.' },
];

async function loop(
  provider: keyof typeof PROVIDERS,
  mode: 'generateText' | 'streamText',
  wrapped: Setup | undefined,
  script: readonly ReasoningTurn[] = ONE_LOOKUP,
  history?: readonly ModelMessage[],
) {
  const server = await startReasoningServer(script);
  servers.push(server);
  const { model, providerOptions } = PROVIDERS[provider];
  const options = {
    model: model(server.baseURL),
    tools: { lookup: tool({ inputSchema: z.object({ customer: z.string() }), execute: async () => ({ plan: 'gold' }) }) },
    stopWhen: isStepCount(script.length + 1),
    ...(history === undefined ? { prompt: 'Which plan is customer c-1 on?' } : { messages: [...history] }),
    providerOptions,
  };
  const pii = redactPii();
  const noop = defineHandler({ name: 'no-op', beforeToolCall: () => InterventionActions.proceed() });
  const interventions = createInterventions({
    handlers: wrapped === 'no redaction' ? [noop] : [pii],
    redactors: wrapped === 'no redaction' ? [] : [pii.redactor],
    ...(wrapped === 'redaction, step held' ? { hooks: { onResponse: () => undefined } } : {}),
  });
  let reasoningText: string | undefined;
  let text: string;
  if (mode === 'generateText') {
    const result = await (wrapped !== undefined ? interventions.generateText(options) : generateText(options));
    ({ text } = result);
    reasoningText = result.steps[0]?.reasoningText;
  } else {
    const result = wrapped !== undefined ? interventions.streamText(options) : streamText(options);
    text = await result.text;
    reasoningText = (await result.steps)[0]?.reasoningText;
  }
  return { bodies: server.bodies, text, reasoningText };
}

describe.each(['anthropic', 'responses', 'responses (store off)'] as const)(
  'reasoning under redaction through the real %s provider',
  (provider) => {
    it.each(['generateText', 'streamText'] as const)(
      'should send the continuation of a %s tool loop exactly as raw with a no-op handler',
      async (mode) => {
        const raw = await loop(provider, mode, undefined);
        const wrapped = await loop(provider, mode, 'no redaction');
        expect(wrapped.bodies).toHaveLength(2);
        expect(wrapped.bodies).toEqual(raw.bodies);
        expect(wrapped.reasoningText).toBe(raw.reasoningText);
      },
    );

    it.each([
      ['generateText', 'redaction'],
      ['streamText', 'redaction'],
      ['streamText', 'redaction, step held'],
    ] as const)(
      'should send the continuation of a %s tool loop (%s) exactly as raw, and show people the redacted reasoning',
      async (mode, setup) => {
        const raw = await loop(provider, mode, undefined);
        const wrapped = await loop(provider, mode, setup);
        expect(raw.text).toBe('The customer is on the gold plan.');
        expect(wrapped.text).toBe(raw.text);
        expect(wrapped.bodies).toHaveLength(2);
        // what goes back to the provider: the block it signed, or the item it stored, as raw sends it
        expect(wrapped.bodies[1]).toEqual(raw.bodies[1]);
        expect(raw.reasoningText).toContain(SSN);
        // what people see is redacted
        expect(wrapped.reasoningText).not.toContain(SSN);
        expect(wrapped.reasoningText).toContain('customer with SSN');
      },
    );
  },
);

describe.each(['generateText', 'streamText'] as const)('two thinking blocks redacted to the same text (%s)', (mode) => {
  it('should give each block back its own original and signature', async () => {
    // different SSNs, the same redacted text: each continuation must carry its own signed block
    const script: ReasoningTurn[] = [
      { reasoning: 'Customer SSN 123-45-6789 first; look it up.', call: { name: 'lookup', input: { customer: 'c-1' } } },
      { reasoning: 'Customer SSN 987-65-4321 first; look it up.', call: { name: 'lookup', input: { customer: 'c-2' } } },
      { text: 'Both are on the gold plan.' },
    ];
    const raw = await loop('anthropic', mode, undefined, script);
    const wrapped = await loop('anthropic', mode, 'redaction', script);
    expect(wrapped.text).toBe('Both are on the gold plan.');
    expect(wrapped.bodies).toHaveLength(3);
    expect(wrapped.bodies[1]).toEqual(raw.bodies[1]);
    expect(wrapped.bodies[2]).toEqual(raw.bodies[2]);
  });
});

/** A chat's history as the client sends it back: an earlier turn's reasoning as people saw it (redacted, no signature), then a new question. */
function clientHistory(reasoning: string): ModelMessage[] {
  return [
    { role: 'user', content: 'Which plan is customer c-0 on?' },
    {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: reasoning },
        { type: 'text', text: 'c-0 is on the gold plan.' },
      ],
    },
    { role: 'user', content: 'And customer c-1?' },
  ];
}

describe.each([
  ['anthropic', 'generateText'],
  ['anthropic', 'streamText'],
  ['responses', 'generateText'],
  ['responses', 'streamText'],
] as const)('a later turn whose reasoning redacts to a text already in the client history (%s, %s)', (provider, mode) => {
  it('should give the original back to the later turn only, leaving the history the client sent as it is', async () => {
    // the client's history holds an earlier turn's reasoning as people saw it: redacted, without its signature
    const earlier = redactPii().redactor.redact('Customer SSN 123-45-6789 first; look it up.');
    const history = clientHistory(earlier);
    // this turn's reasoning redacts to the same text
    const script: ReasoningTurn[] = [
      { reasoning: 'Customer SSN 987-65-4321 first; look it up.', call: { name: 'lookup', input: { customer: 'c-1' } } },
      { text: 'c-1 is on the gold plan too.' },
    ];
    expect(redactPii().redactor.redact('Customer SSN 987-65-4321 first; look it up.')).toBe(earlier);
    const raw = await loop(provider, mode, undefined, script, history);
    const wrapped = await loop(provider, mode, 'redaction', script, history);
    expect(raw.text).toBe('c-1 is on the gold plan too.');
    expect(wrapped.text).toBe(raw.text);
    expect(wrapped.bodies).toHaveLength(2);
    // the continuation carries this turn's signed thinking (its stored reasoning item), the earlier turn as the client sent it
    expect(wrapped.bodies[1]).toEqual(raw.bodies[1]);
    expect(JSON.stringify(wrapped.bodies[1])).not.toContain('123-45-6789');
  });
});

describe.each(['generateText', 'streamText'] as const)('reasoning of a response an afterModelCall guide discarded (%s)', (mode) => {
  it('should give nothing of it back to the provider, in the history the client sent either', async () => {
    const server = await startReasoningServer([
      { reasoning: 'Customer SSN 123-45-6789 first; look it up.', call: { name: 'lookup', input: { customer: 'c-9' } } },
      { reasoning: 'Looking up customer c-1.', call: { name: 'lookup', input: { customer: 'c-1' } } },
      { text: 'c-1 is on the gold plan too.' },
    ]);
    servers.push(server);
    const pii = redactPii();
    const earlier = pii.redactor.redact('Customer SSN 123-45-6789 first; look it up.');
    // the first response is discarded (a guide), the retry is kept
    let attempts = 0;
    const retryOnce = defineHandler({
      name: 'retry-once',
      afterModelCall: () => (attempts++ === 0 ? InterventionActions.guide('Use customer c-1.') : InterventionActions.proceed()),
    });
    const interventions = createInterventions({ handlers: [pii, retryOnce], redactors: [pii.redactor] });
    const options = {
      model: PROVIDERS.anthropic.model(server.baseURL),
      tools: { lookup: tool({ inputSchema: z.object({ customer: z.string() }), execute: async () => ({ plan: 'gold' }) }) },
      stopWhen: isStepCount(3),
      providerOptions: PROVIDERS.anthropic.providerOptions,
      messages: clientHistory(earlier),
    };
    const text = mode === 'generateText' ? (await interventions.generateText(options)).text : await interventions.streamText(options).text;
    expect(text).toBe('c-1 is on the gold plan too.');
    expect(server.bodies).toHaveLength(3);
    // the continuation: the kept turn's signed thinking, and the client's earlier turn without the discarded one's original
    expect(JSON.stringify(server.bodies[2])).not.toContain('123-45-6789');
  });
});
