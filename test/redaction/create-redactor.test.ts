import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { toUIMessageStream } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createInterventions, createRedactor, type RedactionRule, type Redactor } from '../../src/index.ts';
import { partsModel } from '../helpers/parts-model.ts';
import { step, text, usage } from '../helpers/scripted-model.ts';

const ssn = createRedactor({ name: 'ssn', rules: [{ pattern: /\b\d{3}-\d{2}-\d{4}\b/, replacement: '[SSN]' }] });
const apiKeys = createRedactor({
  name: 'api-keys',
  rules: [{ pattern: /sk-[A-Za-z0-9]{20,}/, replacement: '[API KEY]' }],
  lookahead: 32,
});

/** A model that streams `chunks` as the text deltas of one text block. */
function chunkedModel(chunks: readonly string[]) {
  return partsModel(
    [
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 't' },
      ...chunks.map((delta): LanguageModelV4StreamPart => ({ type: 'text-delta', id: 't', delta })),
      { type: 'text-end', id: 't' },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
    ],
    step(text(chunks.join(''))),
  );
}

const word = fc.constantFrom('the', 'key', 'is', 'my', 'number', 'call', 'me', 'at', 'ok', 'sk', 'sk-', '123', '-', '45');
const ssnValue = fc
  .tuple(fc.integer({ min: 100, max: 999 }), fc.integer({ min: 10, max: 99 }), fc.integer({ min: 1000, max: 9999 }))
  .map(([a, b, c]) => `${a}-${b}-${c}`);
const keyValue = fc.stringMatching(/^[A-Za-z0-9]{20,40}$/).map((body) => `sk-${body}`);
const document = fc.array(fc.oneof(word, ssnValue, keyValue), { minLength: 1, maxLength: 25 }).map((tokens) => tokens.join(' '));

/** `text` cut at random points into 1..n chunks (some single characters). */
const chunked = document.chain((text) =>
  fc.uniqueArray(fc.integer({ min: 1, max: Math.max(1, text.length - 1) }), { maxLength: Math.min(40, text.length) }).map((cuts) => {
    const points = [0, ...cuts.filter((cut) => cut < text.length).sort((a, b) => a - b), text.length];
    const chunks: string[] = [];
    for (let index = 1; index < points.length; index++) chunks.push(text.slice(points[index - 1], points[index]));
    return { text, chunks: chunks.filter((chunk) => chunk.length > 0) };
  }),
);

/**
 * Random rules with assertions: a lookbehind, `\b`, `^` (multiline or not)
 * before; a lookahead, `\b`, `$` after; bodies that are bounded, growing or
 * empty (zero-length matches). A body that can grow without bound is only
 * combined with an end the end of the text satisfies, so every rule decides
 * within its lookahead (16), as a redactor requires.
 */
const before = fc.constantFrom('', '\\b', '(?<=token=)', '(?<![A-Za-z0-9])', '^', '(?<=\\s)', '(?<!-)');
const boundedBody = fc.constantFrom('[A-Za-z0-9]{3,8}', '\\d{3}-\\d{2}', 'ab{1,5}', '[a-z]{2}\\d', 'x?');
const boundedAfter = fc.constantFrom('', '\\b', '(?=\\s)', '(?!\\d)', '$', '(?=;)', '(?!-)');
const growingBody = fc.constantFrom('sk-[a-z0-9]{4,}', 'ab+', '\\d+', 'x*', '[A-Za-z0-9]{12,}');
const growingAfter = fc.constantFrom('', '\\b', '(?!\\d)', '$');
const rule = fc
  .record({
    before,
    body: fc.oneof(
      fc.tuple<[string, string]>(boundedBody, boundedAfter),
      fc.tuple<[string, string]>(growingBody, growingAfter),
      fc.constant<[string, string]>(['(?=\\d{2})', '']),
    ),
    flags: fc.constantFrom('', 'g', 'm', 'gm', 'i', 'u', 'mu'),
    replacement: fc.constantFrom<RedactionRule['replacement']>(undefined, '[R]', '', (match: string) => `<${match.length}>`),
  })
  .map(
    ({ before: head, body: [body, tail], flags, replacement }): RedactionRule => ({
      pattern: new RegExp(`${head}${body}${tail}`, flags),
      replacement,
      lookahead: 16,
    }),
  );
const piece = fc.constantFrom(
  'token=',
  'sk-',
  'abc',
  'abbb',
  'Ab9x',
  '123',
  '45',
  '-',
  ' ',
  '\n',
  ';',
  'x',
  'xx',
  'q',
  '😀',
  'TOKEN=',
  'a1b2c3d4e5f6g7',
);
/** A text and a chunking of it (cuts anywhere, also inside a surrogate pair). */
const textAndChunks = fc
  .array(piece, { minLength: 1, maxLength: 40 })
  .map((pieces) => pieces.join(''))
  .chain((text) =>
    fc.uniqueArray(fc.integer({ min: 1, max: Math.max(1, text.length - 1) }), { maxLength: Math.min(30, text.length) }).map((cuts) => {
      const points = [0, ...cuts.filter((cut) => cut < text.length).sort((a, b) => a - b), text.length];
      return { text, chunks: points.slice(1).map((point, index) => text.slice(points[index], point)) };
    }),
  );

/** What a redactor streams for `chunks`. */
function streamed(redactor: Redactor, chunks: readonly string[]): string {
  const session = redactor.stream();
  return chunks.map((chunk) => session.push(chunk)).join('') + session.flush();
}

const secretsIn = (text: string) => [...text.matchAll(/\b\d{3}-\d{2}-\d{4}\b|sk-[A-Za-z0-9]{20,}/g)].map((match) => match[0]);

describe('createRedactor', () => {
  it('should redact whole texts', () => {
    expect(ssn.redact('SSN 123-45-6789, again 987-65-4321.')).toBe('SSN [SSN], again [SSN].');
    expect(apiKeys.redact(`key sk-${'a'.repeat(30)} end`)).toBe('key [API KEY] end');
  });

  it('should reject a lookahead that is not a non-negative integer, on the redactor or on a rule', () => {
    expect(() => createRedactor({ name: 'bad', rules: [], lookahead: -1 })).toThrow(/lookahead must be a non-negative integer/);
    expect(() => createRedactor({ name: 'bad', rules: [{ pattern: /x/, lookahead: 1.5 }] })).toThrow(
      /lookahead must be a non-negative integer/,
    );
  });

  it("should hold back the sum of its rules' lookaheads while nothing matches", () => {
    const twoRules = createRedactor({
      name: 'two',
      rules: [
        { pattern: /a{3}/, lookahead: 4 },
        { pattern: /b{3}/, lookahead: 6 },
      ],
    });
    expect(twoRules.lookahead).toBe(10);
    const session = twoRules.stream();
    expect([...'x'.repeat(50)].map((char) => session.push(char)).join('')).toBe('x'.repeat(40));
  });

  it('should hold back no more than the lookahead while nothing matches', () => {
    const session = ssn.stream();
    const released = session.push('x'.repeat(100));
    expect(released).toBe('x'.repeat(100 - ssn.lookahead));
    expect(session.flush()).toBe('x'.repeat(ssn.lookahead));
  });

  it('should never leak a secret split across any chunking, in any output channel', async () => {
    await fc.assert(
      fc.asyncProperty(chunked, async ({ text, chunks }) => {
        const secrets = secretsIn(text);
        const expected = apiKeys.redact(ssn.redact(text));
        const interventions = createInterventions({ redactors: [ssn, apiKeys] });

        const streamed = interventions.streamText({ model: chunkedModel(chunks), prompt: 'x' });
        const deltas: string[] = [];
        for await (const delta of streamed.textStream) deltas.push(delta);
        const channels = {
          streamed: deltas.join(''),
          text: await streamed.text,
          messages: JSON.stringify(await streamed.responseMessages),
          ui: '',
          generated: (await interventions.generateText({ model: chunkedModel(chunks), prompt: 'x' })).text,
        };
        const ui = interventions.streamText({ model: chunkedModel(chunks), prompt: 'x' });
        for await (const chunk of toUIMessageStream({ stream: ui.stream })) {
          if (chunk.type === 'text-delta') channels.ui += chunk.delta;
        }

        for (const [channel, output] of Object.entries(channels)) {
          for (const secret of secrets) {
            expect(output.includes(secret), `${channel} leaked ${secret}`).toBe(false);
          }
        }
        expect(channels.streamed).toBe(expected);
        expect(channels.text).toBe(expected);
        expect(channels.ui).toBe(expected);
        expect(channels.generated).toBe(expected);
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 150), seed: Number(process.env.FUZZ_SEED ?? 20261122) },
    );
  });

  describe('when rules use lookbehinds, lookaheads, \\b, ^ or $', () => {
    it('should stream exactly what redact gives for the whole text, for any rules and any chunking (fast-check)', () => {
      fc.assert(
        fc.property(fc.array(rule, { minLength: 1, maxLength: 3 }), textAndChunks, (rules, { text, chunks }) => {
          const redactor = createRedactor({ name: 'random', rules });
          expect(streamed(redactor, chunks)).toBe(redactor.redact(text));
          // one character at a time, the worst case
          expect(streamed(redactor, [...text])).toBe(redactor.redact(text));
        }),
        { numRuns: Number(process.env.FUZZ_RUNS ?? 1000), seed: Number(process.env.FUZZ_SEED ?? 20261123) },
      );
    });
  });
});
