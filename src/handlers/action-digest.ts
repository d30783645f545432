import type { DecisionRecord } from '../actions/decision-record.ts';
import { sha256, stableJson } from '../data/stable-json.ts';

/**
 * What an action digest binds, read from a record.
 *
 * @inline
 */
export type DigestedRecord = Pick<DecisionRecord, 'lifecycle' | 'toolName' | 'action' | 'reason' | 'feedback' | 'prompt' | 'display'>;

/**
 * The digest a decision record carries as `actionDigest`: the SHA-256
 * (lower-case hex) of the canonical JSON (keys sorted) of
 * `['ai-interventions-action-v1', lifecycle, toolName, input, action,
 * reason, feedback, prompt, display]`, each missing one `null`. `input` is
 * the call's arguments as the evaluation decided them (`undefined` for a
 * record that is not about a tool call). Recompute it to check that a
 * record was about the call you hold.
 *
 * @example
 * ```ts
 * const result = await interventions.generateText({ model, tools, prompt: 'Delete /tmp/report.txt' });
 * const record = result.interventions.decisions.find((decision) => decision.toolName === 'delete_file');
 * if (record?.actionDigest !== undefined) {
 *   const same = record.actionDigest === (await actionDigestOf(record, { path: '/tmp/report.txt' }));
 *   console.log(same ? 'about this call' : 'about another call');
 * }
 * ```
 */
export function actionDigestOf(record: DigestedRecord, input: unknown): Promise<string> {
  return sha256(
    stableJson([
      'ai-interventions-action-v1',
      record.lifecycle,
      record.toolName ?? null,
      input ?? null,
      record.action,
      record.reason ?? null,
      record.feedback ?? null,
      record.prompt ?? null,
      record.display ?? null,
    ]),
  );
}
