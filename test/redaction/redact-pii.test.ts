import { isStepCount, type ModelMessage, tool, toUIMessageStream } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AfterToolCallEvent, type BeforeToolCallEvent, createInterventions } from '../../src/index.ts';
import type { RedactedToolValue } from '../../src/redaction/create-redaction-handler.ts';
import { redactPii } from '../../src/redaction/redact-pii.ts';
import { chunkedModel } from '../helpers/chunked-model.ts';
import { step, text, toolCall, toolResultsSent } from '../helpers/scripted-model.ts';

const EMAIL = 'jane.doe@acme-corp.com';
const PHONE = '(415) 555-2671';
const SSN = '123-45-6789';
const CARD = '4111 1111 1111 1111';
const IP = '203.0.113.42';
const SECRETS = [EMAIL, PHONE, SSN, CARD, '4111111111111111', IP, '555-2671', '1111 1111 1111'];

function expectNoSecret(value: unknown) {
  const serialized = JSON.stringify(value);
  for (const secret of SECRETS) expect(serialized).not.toContain(secret);
}

/** A CRM whose records are full of personal data, and an email tool. */
function crm() {
  const record = {
    name: 'Jane Doe',
    contact: { email: EMAIL, phones: [PHONE, '+44 20 7946 0958'] },
    billing: { card: CARD, ssn: SSN, lastLoginIp: IP, orderId: '1234567890123456' },
  };
  const frozen = structuredClone(record);
  const sent: Array<{ to: string; body: string }> = [];
  const tools = {
    crm_lookup: tool({
      inputSchema: z.object({ name: z.string() }),
      execute: async () => record,
    }),
    send_note: tool({
      inputSchema: z.object({ to: z.string(), body: z.string() }),
      execute: async (input) => {
        sent.push(input);
        return 'sent';
      },
    }),
  };
  return { tools, record, frozen, sent };
}

const USER: ModelMessage = { role: 'user', content: 'Look up Jane and send a note to the team.' };

describe('redactPii', () => {
  describe('through interventions.generateText', () => {
    it('should redact tool results and arguments, keep the original intact, and tell onRedacted', async () => {
      const { tools, record, frozen, sent } = crm();
      const seen: RedactedToolValue[] = [];
      const pii = redactPii({ onRedacted: (value) => void seen.push(value) });
      const model = chunkedModel(
        7,
        step(toolCall('c1', 'crm_lookup', { name: 'Jane' })),
        step(toolCall('c2', 'send_note', { to: 'team', body: `Jane: ${EMAIL}, ${PHONE}, card ${CARD}` })),
        step(text(`Done. Jane is at ${EMAIL} and ${PHONE}.`)),
      );
      const interventions = createInterventions({ handlers: [pii], redactors: [pii.redactor] });

      const result = await interventions.generateText({ model, tools, stopWhen: isStepCount(5), messages: [USER] });

      // what the model read
      expect(toolResultsSent(model, 1).c1).toEqual({
        type: 'json',
        value: {
          name: 'Jane Doe',
          contact: { email: '[EMAIL]', phones: ['[PHONE]', '[PHONE]'] },
          billing: { card: '[CREDIT_CARD]', ssn: '[SSN]', lastLoginIp: '[IP_ADDRESS]', orderId: '1234567890123456' },
        },
      });
      expectNoSecret(model.calls);
      // the tool ran with redacted arguments, and the history shows them
      expect(sent).toEqual([{ to: 'team', body: 'Jane: [EMAIL], [PHONE], card [CREDIT_CARD]' }]);
      expect(JSON.stringify(model.calls[2]?.prompt)).toContain('Jane: [EMAIL], [PHONE], card [CREDIT_CARD]');
      // the model's own text
      expect(result.text).toBe('Done. Jane is at [EMAIL] and [PHONE].');
      expectNoSecret(result.text);
      expectNoSecret(result.responseMessages);
      // the app keeps the original; the tool's object was never touched
      expect(record).toEqual(frozen);
      expect(seen.map(({ toolCall: call, where }) => [call.toolCallId, where])).toEqual([
        ['c1', 'result'],
        ['c2', 'arguments'],
      ]);
      expect(seen[0]?.original).toBe(record);
      expect(seen[1]?.original).toEqual({ to: 'team', body: `Jane: ${EMAIL}, ${PHONE}, card ${CARD}` });
      expect(seen[0]?.runId).toEqual(expect.any(String));
      expect(result.interventions.decisions.map((d) => [d.toolCallId, d.lifecycle, d.action])).toEqual([
        ['c1', 'beforeToolCall', 'proceed'],
        ['c1', 'afterToolCall', 'transform'],
        ['c2', 'beforeToolCall', 'transform'],
        ['c2', 'afterToolCall', 'proceed'],
      ]);
    });

    it('should leave numbers that are not card numbers, and calls without personal data, alone', async () => {
      const model = chunkedModel(
        5,
        step(toolCall('c1', 'lookup', { id: 'A-1' })),
        step(text('Order 4111 1111 1111 1112 shipped on 2024-05-06, tracking 1718000000000, build 1.2.3.4.5.')),
      );
      const pii = redactPii();
      const result = {
        order: '4111 1111 1111 1112', // fails the Luhn check
        ts: 1718000000000,
        nested: [{ version: '1.2.3.4.5', at: '10:30:45' }],
      };
      const interventions = createInterventions({ handlers: [pii], redactors: [pii.redactor] });
      const final = await interventions.generateText({
        model,
        tools: { lookup: tool({ inputSchema: z.object({ id: z.string() }), execute: async () => result }) },
        stopWhen: isStepCount(3),
        prompt: 'Where is my order?',
      });
      expect(toolResultsSent(model, 1).c1).toEqual({ type: 'json', value: result });
      expect(final.text).toBe('Order 4111 1111 1111 1112 shipped on 2024-05-06, tracking 1718000000000, build 1.2.3.4.5.');
      expect(final.interventions.decisions.every((d) => d.action === 'proceed')).toBe(true);
    });
  });

  describe('through interventions.streamText', () => {
    it('should never stream a value split across chunks, nor send one to the model or the UI', async () => {
      for (const size of [1, 3, 8]) {
        const { tools, record, frozen, sent } = crm();
        const pii = redactPii();
        const model = chunkedModel(
          size,
          step(text(`Let me look up ${EMAIL} first.`), toolCall('c1', 'crm_lookup', { name: 'Jane' })),
          step(toolCall('c2', 'send_note', { to: EMAIL, body: `call ${PHONE}` })),
          step(text(`Jane: ${EMAIL}, ${PHONE}, SSN ${SSN}, card ${CARD}, ip ${IP}.`)),
        );
        const interventions = createInterventions({ handlers: [pii], redactors: [pii.redactor] });

        const result = interventions.streamText({ model, tools, stopWhen: isStepCount(5), messages: [USER] });
        const deltas: string[] = [];
        const ui: unknown[] = [];
        for await (const chunk of toUIMessageStream({ stream: result.stream })) {
          ui.push(chunk);
          if ((chunk as { type: string }).type === 'text-delta') deltas.push((chunk as { delta: string }).delta);
        }

        expect(deltas.join('')).toBe(
          'Let me look up [EMAIL] first.Jane: [EMAIL], [PHONE], SSN [SSN], card [CREDIT_CARD], ip [IP_ADDRESS].',
        );
        expectNoSecret(ui);
        expectNoSecret(model.calls);
        expectNoSecret(await result.text);
        expect(sent).toEqual([{ to: '[EMAIL]', body: 'call [PHONE]' }]);
        expect(record).toEqual(frozen);
      }
    });
  });

  describe('when a value has prototype-pollution keys, cycles or class instances', () => {
    it('should keep __proto__ and constructor as plain data and pollute nothing', async () => {
      const hostile: unknown = JSON.parse(
        `{"__proto__": {"polluted": "${EMAIL}"}, "constructor": {"prototype": {"email": "${EMAIL}"}}, "ok": 1}`,
      );
      const pii = redactPii();
      const model = chunkedModel(10, step(toolCall('c1', 'fetch', {})), step(text('ok')));
      const interventions = createInterventions({ handlers: [pii] });
      await interventions.generateText({
        model,
        tools: { fetch: tool({ inputSchema: z.object({}), execute: async () => hostile }) },
        stopWhen: isStepCount(3),
        prompt: 'fetch',
      });
      const sentResult = toolResultsSent(model, 1).c1 as { value: Record<string, unknown> };
      expect(Object.hasOwn(sentResult.value, '__proto__')).toBe(true);
      expect(JSON.stringify(sentResult.value)).toBe(
        '{"__proto__":{"polluted":"[EMAIL]"},"constructor":{"prototype":{"email":"[EMAIL]"}},"ok":1}',
      );
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.hasOwn(Object.prototype, 'email')).toBe(false);
      expect(JSON.stringify(hostile)).toContain(EMAIL); // the original is untouched
    });

    it('should copy cycles and shared references, redact keys, and redact a class instance through its JSON', async () => {
      class Contact {
        readonly email: string;
        constructor(email: string) {
          this.email = email;
        }
      }
      const shared = { email: EMAIL };
      const cyclic: Record<string, unknown> = { a: shared, b: shared, [EMAIL]: 'key', when: new Date(0), who: new Contact(EMAIL) };
      cyclic.self = cyclic;
      const pii = redactPii();
      const action = await pii.afterToolCall({
        lifecycle: 'afterToolCall',
        toolCall: { toolCallId: 'c1', toolName: 'fetch', input: {} },
        result: cyclic,
      } as AfterToolCallEvent);
      expect(action.type).toBe('transform');
      if (action.type !== 'transform') return;
      const draft = { result: cyclic } as AfterToolCallEvent;
      await action.apply(draft);
      const redacted = draft.result as Record<string, unknown>;
      expect(redacted).not.toBe(cyclic);
      expect(redacted.self).toBe(redacted);
      expect(redacted.a).toBe(redacted.b);
      expect(redacted.a).toEqual({ email: '[EMAIL]' });
      expect(redacted['[EMAIL]']).toBe('key');
      expect(redacted.when).toBe(cyclic.when); // nothing to redact: kept as is
      expect(redacted.who).toEqual({ email: '[EMAIL]' });
      expect(shared.email).toBe(EMAIL);
      expect(Object.keys(cyclic)).toContain(EMAIL);
    });

    it('should return proceed, not a transform, when there is nothing to redact', () => {
      const pii = redactPii();
      const input = { q: 'weather in Paris' };
      expect(pii.beforeToolCall({ toolCall: { toolCallId: 'c1', toolName: 'search', input } } as BeforeToolCallEvent)).toEqual({
        type: 'proceed',
      });
    });
  });

  describe('its patterns, streamed', () => {
    it('should never release any part of a value, and stream what redact gives, whatever the chunking (fast-check)', () => {
      const { redactor } = redactPii();
      const values = [EMAIL, PHONE, SSN, CARD, IP, '+44 20 7946 0958', 'x.y+z@mail.example.org', '2001:db8::8a2e:370:7334'];
      const filler = fc.constantFrom('the', 'card', '4', '41', '(', '+', '@', '.', '-', 'call', '\n', '10.0');
      const document = fc
        .array(fc.oneof(fc.constantFrom(...values), filler), { minLength: 1, maxLength: 12 })
        .map((tokens) => tokens.join(' '));
      const chunking = document.chain((value) =>
        fc.array(fc.integer({ min: 1, max: 30 }), { minLength: 1, maxLength: 40 }).map((sizes) => ({ value, sizes })),
      );
      fc.assert(
        fc.property(chunking, ({ value, sizes }) => {
          const session = redactor.stream();
          let out = '';
          let at = 0;
          for (let index = 0; at < value.length; index++) {
            const size = sizes[index % sizes.length] ?? 1;
            out += session.push(value.slice(at, at + size));
            at += size;
          }
          out += session.flush();
          expect(out).toBe(redactor.redact(value));
          for (const part of [...values, '555-2671', '1111 1111', '7946 0958', '8a2e:370']) expect(out).not.toContain(part);
        }),
        { seed: 42, numRuns: 300 },
      );
    });
  });

  describe('options', () => {
    it('should redact only the chosen kinds, with the chosen replacement', () => {
      const emailsOnly = redactPii({ kinds: ['email'], replacement: (_match, kind) => `<${kind}>` });
      expect(emailsOnly.redactor.redact(`${EMAIL} ${PHONE} ${SSN}`)).toBe(`<email> ${PHONE} ${SSN}`);
      const masked = redactPii({ replacement: '***' });
      expect(masked.redactor.redact(`${EMAIL} / ${CARD} 123`)).toBe('*** / *** 123');
    });

    it('should recognise the supported formats', () => {
      const { redactor } = redactPii();
      expect(
        redactor.redact(
          'a@b.io, +1 415.555.2671, +33 1 23 45 67 89, 987 65 4321, 5555-5555-5555-4444, 378282246310005, 10.0.0.1, 2001:db8::8a2e:370:7334',
        ),
      ).toBe('[EMAIL], [PHONE], [PHONE], [SSN], [CREDIT_CARD], [CREDIT_CARD], [IP_ADDRESS], [IP_ADDRESS]');
      expect(redactor.redact('zod@4.1.0 std::string 12:30:45 1.2.3.4.5 +12 x')).toBe('zod@4.1.0 std::string 12:30:45 1.2.3.4.5 +12 x');
    });
  });
});
