import type { ToolSet } from 'ai';
import type { DecisionRecord } from '../actions/decision-record.ts';
import type { ResumedApproval } from '../answers/read-resume.ts';
import type { HeldAnswer } from '../approvals/approval-state.ts';
import type { RuntimeSnapshot } from '../run/runtime-snapshot.ts';

/** What the UI stream reads from a run: its records as they are written, and what its input resumed. */
export interface DecisionSource {
  readonly runId: string | undefined;
  readonly decisions: readonly DecisionRecord[];
  /** What the input answered (the run's approval session), if anything. */
  readonly approvals:
    | {
        readonly resume: { readonly answers: readonly ResumedApproval[]; readonly approved: ReadonlyMap<string, ResumedApproval> };
        /** The answers held for the right person or more approvals: their requests are shown pending again. */
        readonly held: readonly HeldAnswer[];
        /** Finishes a request the run asked (its pin), where the run's own transform did not (an agent's stream). */
        finishPart(part: unknown): void;
      }
    | undefined;
  readonly tools: ToolSet | undefined;
  /** The trusted runtime context of the request the run serves: who asks what it asks, and who answers what it resumes. */
  readonly runtimeContext?: Readonly<Record<string, unknown>> | undefined;
  /** The calls whose decision is still under way at the SDK's approval point: their decision part waits for a later part of theirs. */
  readonly deciding?: ReadonlySet<string> | undefined;
  /** Which calls get a part (only those a handler acted on, or every decided one), and the rules redacting what they show. */
  readonly snapshot: Pick<RuntimeSnapshot, 'decisionParts' | 'redactors' | 'handlers'>;
}

// how a decision travels through the SDK's own conversion, before it becomes a data part
export const KIND = 'ai-interventions.decision';
export const NAMESPACE = 'aiInterventions';
