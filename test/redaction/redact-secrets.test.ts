import { isStepCount, tool, toUIMessageStream } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createInterventions } from '../../src/index.ts';
import type { RedactedToolValue } from '../../src/redaction/create-redaction-handler.ts';
import { redactSecrets, SECRET_PATTERNS } from '../../src/redaction/redact-secrets.ts';
import { chunkedModel } from '../helpers/chunked-model.ts';
import { step, text, toolCall, toolResultsSent } from '../helpers/scripted-model.ts';

const OPENAI = 'sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z';
const AWS = 'AKIAIOSFODNN7EXAMPLE';
const GITHUB = `ghp_${'x1Y2z3'.repeat(6)}`;
const JWT = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';
const BEARER_TOKEN = 'tok_9f8e7d6c5b4a3210fedcba';
const PASSWORD = 'hunter2-Secret!';
const PEM = '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7bq9\nQ2sZ0k1PfV8\n-----END RSA PRIVATE KEY-----';
const SECRETS = [
  OPENAI,
  AWS,
  GITHUB,
  JWT,
  'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV',
  BEARER_TOKEN,
  PASSWORD,
  'MIIEowIBAAKCAQEA7bq9',
  'Q2sZ0k1PfV8',
];

function expectNoSecret(value: unknown) {
  const serialized = typeof value === 'string' ? value : JSON.stringify(value);
  for (const secret of SECRETS) expect(serialized).not.toContain(secret);
}

/** A `read_env` tool returning credentials, and an `http_get` tool recording its requests. */
function devTools() {
  const env = {
    OPENAI_API_KEY: OPENAI,
    AWS_ACCESS_KEY_ID: AWS,
    DB_PASSWORD: PASSWORD,
    deploy: { keys: [PEM], github: `token ${GITHUB}` },
    NODE_ENV: 'production',
  };
  const frozen = structuredClone(env);
  const requests: Array<{ url: string; headers: Record<string, string> }> = [];
  const tools = {
    read_env: tool({ inputSchema: z.object({}), execute: async () => env }),
    http_get: tool({
      inputSchema: z.object({ url: z.string(), headers: z.record(z.string(), z.string()) }),
      execute: async (input) => {
        requests.push(input);
        return { status: 200, echo: `auth was Bearer ${BEARER_TOKEN}` };
      },
    }),
  };
  return { tools, env, frozen, requests };
}

const finalText = `Your key is ${OPENAI}, the session is ${JWT}, and the deploy key is\n${PEM}\nKeep them safe; password: ${PASSWORD} (rotate it).`;
const expectedText =
  'Your key is [API_KEY], the session is [JWT], and the deploy key is\n[PRIVATE_KEY]\nKeep them safe; password: [REDACTED] (rotate it).';

describe('redactSecrets', () => {
  describe('through interventions.generateText', () => {
    it('should redact credentials in results, arguments and the model text, and report the originals', async () => {
      const { tools, env, frozen, requests } = devTools();
      const seen: RedactedToolValue[] = [];
      const secrets = redactSecrets({ onRedacted: (value) => void seen.push(value) });
      const model = chunkedModel(
        9,
        step(toolCall('c1', 'read_env', {})),
        step(
          toolCall('c2', 'http_get', {
            url: 'https://api.example.com',
            headers: { Authorization: `Bearer ${BEARER_TOKEN}`, 'x-api-key': 'plain-value-1' },
          }),
        ),
        step(text(finalText)),
      );
      const interventions = createInterventions({ handlers: [secrets], redactors: [secrets.redactor] });

      const result = await interventions.generateText({ model, tools, stopWhen: isStepCount(5), prompt: 'Check the deploy config' });

      expect(toolResultsSent(model, 1).c1).toEqual({
        type: 'json',
        value: {
          OPENAI_API_KEY: '[REDACTED]', // a sensitive key: replaced whole
          AWS_ACCESS_KEY_ID: '[AWS_ACCESS_KEY_ID]',
          DB_PASSWORD: '[REDACTED]',
          deploy: { keys: ['[PRIVATE_KEY]'], github: 'token [GITHUB_TOKEN]' },
          NODE_ENV: 'production',
        },
      });
      // the tool got redacted headers (a sensitive key is replaced whatever its value)
      expect(requests).toEqual([{ url: 'https://api.example.com', headers: { Authorization: '[REDACTED]', 'x-api-key': '[REDACTED]' } }]);
      expect(toolResultsSent(model, 2).c2).toEqual({ type: 'json', value: { status: 200, echo: 'auth was Bearer [TOKEN]' } });
      expectNoSecret(model.calls);
      expect(result.text).toBe(expectedText);
      expectNoSecret(result.responseMessages);
      expect(env).toEqual(frozen);
      expect(seen.map(({ where, toolCall: call }) => `${call.toolName}:${where}`)).toEqual([
        'read_env:result',
        'http_get:arguments',
        'http_get:result',
      ]);
      expect(seen[0]?.original).toBe(env);
    });
  });

  describe('through interventions.streamText', () => {
    it('should hold back a secret split across any chunk size, so it never streams', async () => {
      for (const size of [1, 2, 5, 13, 64]) {
        const { tools, requests } = devTools();
        const secrets = redactSecrets();
        const model = chunkedModel(
          size,
          step(text(`Reading with ${AWS} and ${GITHUB}. `), toolCall('c1', 'read_env', {})),
          step(toolCall('c2', 'http_get', { url: 'https://x.test', headers: { cookie: `jwt=${JWT}` } })),
          step(text(finalText)),
        );
        const interventions = createInterventions({ handlers: [secrets], redactors: [secrets.redactor] });
        const result = interventions.streamText({ model, tools, stopWhen: isStepCount(5), prompt: 'Check the deploy config' });

        const deltas: string[] = [];
        const ui: unknown[] = [];
        for await (const chunk of toUIMessageStream({ stream: result.stream })) {
          ui.push(chunk);
          if (chunk.type === 'text-delta') {
            deltas.push(chunk.delta);
            expectNoSecret(chunk.delta);
          }
        }
        expect(deltas.join('')).toBe(`Reading with [AWS_ACCESS_KEY_ID] and [GITHUB_TOKEN]. ${expectedText}`);
        expectNoSecret(ui);
        expectNoSecret(model.calls);
        expect(requests).toEqual([{ url: 'https://x.test', headers: { cookie: 'jwt=[JWT]' } }]);
      }
    });
  });

  describe('its default patterns, streamed', () => {
    it('should never release any part of a secret, and stream what redact gives, whatever the chunking (fast-check)', () => {
      const secrets = redactSecrets();
      const secret = fc.constantFrom(OPENAI, AWS, GITHUB, JWT, `Bearer ${BEARER_TOKEN}`, PEM, `password=${PASSWORD}`);
      const filler = fc.constantFrom('the', 'key', 'is', 'sk', 'eyJ', 'Bearer', 'AKIA', '-----', 'ghp_', ':', '\n');
      const document = fc.array(fc.oneof(secret, filler), { minLength: 1, maxLength: 12 }).map((tokens) => tokens.join(' '));
      const chunking = document.chain((value) =>
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 60 }).map((sizes) => ({ value, sizes })),
      );
      fc.assert(
        fc.property(chunking, ({ value, sizes }) => {
          const session = secrets.redactor.stream();
          let out = '';
          let at = 0;
          for (let index = 0; at < value.length; index++) {
            const size = sizes[index % sizes.length] ?? 1;
            out += session.push(value.slice(at, at + size));
            at += size;
          }
          out += session.flush();
          expect(out).toBe(secrets.redactor.redact(value));
          for (const part of SECRETS) expect(out).not.toContain(part);
        }),
        { seed: 42, numRuns: 300 },
      );
    });
  });

  describe('when a private key has no END line', () => {
    it('should stream it in linear work, not rescan it on every delta', () => {
      const { redactor } = redactSecrets();
      const text = `Here it is:\n-----BEGIN PRIVATE KEY-----\n${'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\n'.repeat(800)}`;
      for (const size of [4, 64]) {
        const { result, scanned } = countScanned(() => {
          const session = redactor.stream();
          let out = '';
          for (let at = 0; at < text.length; at += size) out += session.push(text.slice(at, at + size));
          return out + session.flush();
        });
        expect(result).toBe('Here it is:\n[PRIVATE_KEY]');
        // every character is offered to each regex a bounded number of times (the old stream: ~10,000 times)
        expect(scanned / text.length).toBeLessThan(20);
      }
    });
  });

  describe('options', () => {
    it('should use only the given patterns, and no sensitive keys when turned off', async () => {
      const secrets = redactSecrets({ patterns: [SECRET_PATTERNS.aws], sensitiveKeys: false });
      expect(secrets.redactor.redact(`${AWS} ${OPENAI}`)).toBe(`[AWS_ACCESS_KEY_ID] ${OPENAI}`);
      const action = await secrets.afterToolCall({
        lifecycle: 'afterToolCall',
        toolCall: { toolCallId: 'c1', toolName: 'env', input: {} },
        result: { password: 'x' },
      } as Parameters<typeof secrets.afterToolCall>[0]);
      expect(action).toEqual({ type: 'proceed' });
    });

    it('should leave ordinary text alone', () => {
      const { redactor } = redactSecrets();
      const prose = 'The task-runner uses skip-tokens; a Bearer of bad news; my password is long.';
      expect(redactor.redact(prose)).toBe(prose);
    });
  });
});

/**
 * `work()`'s result and how many characters it offered to regular
 * expressions: for each `exec` (which `replace` and `matchAll` call too), the
 * text from `lastIndex` on. Deterministic, unlike a timing.
 */
function countScanned<T>(work: () => T): { result: T; scanned: number } {
  const exec = RegExp.prototype.exec;
  let scanned = 0;
  RegExp.prototype.exec = function counted(this: RegExp, text: string) {
    scanned += text.length - (this.global || this.sticky ? this.lastIndex : 0);
    return exec.call(this, text);
  };
  try {
    return { result: work(), scanned };
  } finally {
    RegExp.prototype.exec = exec;
  }
}
