import { knownOptions } from '../util/known-options.ts';
import { createRedactionHandler, type RedactedToolValue, type RedactionHandler } from './create-redaction-handler.ts';
import type { RedactionRule } from './create-redactor.ts';

const CREDENTIAL =
  /(?<![A-Za-z0-9])(password|passwd|secret|client[_-]?secret|api[_-]?key|apikey|access[_-]?token|auth[_-]?token|refresh[_-]?token|private[_-]?key)(["']?\s*[:=]\s*)(["']?)([^\s"',;[][^\s"',;]{5,})/i;

/**
 * The secret shapes {@link redactSecrets} finds by default, by name: pass a
 * subset, or add your own, as its `patterns`.
 *
 * - `privateKey`: a PEM private key block (`-----BEGIN … PRIVATE KEY-----`
 *   to its END line; with no END line, everything after BEGIN);
 * - `bearer`: `Bearer <token>` (the word is kept);
 * - `jwt`: a JSON Web Token (`eyJ…`, also caught while it is incomplete);
 * - `apiKey`: OpenAI-style keys `sk-…` (also `sk-proj-…`, Anthropic `sk-ant-…`);
 * - `aws`: AWS access key ids (`AKIA…`, `ASIA…`);
 * - `github`: GitHub tokens (`ghp_…`, `gho_…`, `ghs_…`, `ghu_…`, `ghr_…`, `github_pat_…`);
 * - `credential`: an assignment to a credential name, `password: hunter22`,
 *   `api_key="…"` (the name is kept).
 *
 * Every pattern recognises a secret from a short prefix on, so a streamed
 * secret is held back long before it is complete; each has the `lookahead`
 * its shape needs (the stream holds back their sum, 288 characters, while
 * nothing matches).
 *
 * @example
 * ```ts
 * const secrets = redactSecrets({
 *   patterns: [...Object.values(SECRET_PATTERNS), { pattern: /\bxoxb-[\w-]{20,}/, replacement: '[SLACK_TOKEN]' }],
 * });
 * ```
 */
export const SECRET_PATTERNS = Object.freeze({
  privateKey: {
    pattern: /-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----|$)/g,
    replacement: '[PRIVATE_KEY]',
    lookahead: 80,
  },
  bearer: {
    pattern: /\bBearer\s+[A-Za-z0-9._~+/-]{12,}=*/gi,
    replacement: (match: string) => `${match.slice(0, 6)} [TOKEN]`,
    lookahead: 32,
  },
  jwt: {
    pattern: /\beyJ[A-Za-z0-9_-]{8,}(?:\.[A-Za-z0-9_-]+){0,2}/g,
    replacement: '[JWT]',
    lookahead: 16,
  },
  apiKey: {
    pattern: /\bsk-(?:proj-|svcacct-|admin-|ant-)?[A-Za-z0-9_-]{20,}/g,
    replacement: '[API_KEY]',
    lookahead: 40,
  },
  aws: {
    pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g,
    replacement: '[AWS_ACCESS_KEY_ID]',
    lookahead: 24,
  },
  github: {
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})/g,
    replacement: '[GITHUB_TOKEN]',
    lookahead: 48,
  },
  credential: {
    pattern: new RegExp(CREDENTIAL.source, 'gi'),
    replacement: (match: string) => {
      const parts = CREDENTIAL.exec(match);
      return parts === null ? '[REDACTED]' : `${parts[1] ?? ''}${parts[2] ?? ''}${parts[3] ?? ''}[REDACTED]`;
    },
    lookahead: 48,
  },
} satisfies Record<string, RedactionRule>);

/**
 * Object keys whose string values {@link redactSecrets} replaces whole by
 * default: `password`, `DB_PASSWORD`, `clientSecret`, `apiKey`, `x-api-key`,
 * `accessToken`, `Authorization`, `credentials`, …
 *
 * @example
 * ```ts
 * const secrets = redactSecrets({ sensitiveKeys: new RegExp(`${SENSITIVE_KEYS.source}|^pin$`, 'i') });
 * ```
 */
export const SENSITIVE_KEYS: RegExp =
  /(?:password|passwd|secret|api[_-]?key|apikey|access[_-]?key|private[_-]?key|(?:access|auth|refresh|bearer|session|id)[_-]?token|authorization|credentials?)$/i;

/**
 * Options of {@link redactSecrets}.
 *
 * @example
 * ```ts
 * const options: RedactSecretsOptions = { patterns: [SECRET_PATTERNS.apiKey, SECRET_PATTERNS.aws], sensitiveKeys: false };
 * const secrets = redactSecrets(options);
 * ```
 */
export interface RedactSecretsOptions {
  /** The handler's (and redactor's) name. Default `'redact-secrets'`. */
  readonly name?: string;
  /** What to find. Default: every entry of {@link SECRET_PATTERNS}. */
  readonly patterns?: readonly RedactionRule[];
  /**
   * Object keys whose string values are replaced whole (`'[REDACTED]'`) in
   * tool arguments and results, whatever they contain. Default
   * {@link SENSITIVE_KEYS}; `false`: none.
   */
  readonly sensitiveKeys?: RegExp | false;
  /**
   * The lookahead of every pattern (see {@link RedactionRule}). Default: each
   * pattern's own, 64 for a pattern without one.
   */
  readonly lookahead?: number;
  /** Told about each redacted arguments object or result, with the original. */
  readonly onRedacted?: (value: RedactedToolValue) => void | PromiseLike<void>;
}

/** The keys of {@link RedactSecretsOptions}: `redactSecrets` checks its options against them. */
export const REDACT_SECRETS_OPTIONS = knownOptions<RedactSecretsOptions>({
  name: true,
  patterns: true,
  sensitiveKeys: true,
  lookahead: true,
  onRedacted: true,
});

/**
 * Redacts credentials (API keys, tokens, JWTs, private keys, passwords)
 * wherever they would reach the model or leave through a tool: tool
 * arguments before the tool runs, tool results before the model reads them
 * (keep the original with `onRedacted`), the errors tools throw (a failed
 * request's message often quotes its credentials), and, through `.redactor`,
 * the model's own text and reasoning as they stream. Nested values are walked; the original is
 * never mutated; `__proto__` keys stay plain data.
 *
 * @example
 * ```ts
 * const secrets = redactSecrets({
 *   onRedacted: ({ toolCall, where }) => console.warn(`redacted a secret in the ${where} of ${toolCall.toolName}`),
 * });
 * const interventions = createInterventions({ handlers: [secrets], redactors: [secrets.redactor] });
 * await interventions.generateText({ model, tools: { read_file }, prompt: 'What is in .env?' });
 * // the model read OPENAI_API_KEY=[API_KEY], DB_PASSWORD=[REDACTED]
 * ```
 */
export function redactSecrets(options: RedactSecretsOptions = {}): RedactionHandler {
  REDACT_SECRETS_OPTIONS.check(options, `redactSecrets "${options.name ?? 'redact-secrets'}"`);
  const {
    name = 'redact-secrets',
    patterns = Object.values(SECRET_PATTERNS),
    sensitiveKeys = SENSITIVE_KEYS,
    lookahead,
    onRedacted,
  } = options;
  return createRedactionHandler({
    name,
    rules: lookahead === undefined ? patterns : patterns.map((pattern) => ({ ...pattern, lookahead })),
    sensitiveKeys: sensitiveKeys === false ? undefined : sensitiveKeys,
    onRedacted,
  });
}
