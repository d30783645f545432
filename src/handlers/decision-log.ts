import type { DecisionRecord } from '../actions/decision-record.ts';
import type { InterventionEvent } from '../actions/intervention-events.ts';
import type { Lifecycle } from '../actions/lifecycle.ts';
import { recordAt } from './record-of.ts';
import type { RegisteredHandler } from './registered-handler.ts';

/** What the log keeps of a plain proceed until its record is read: how long, who, where (never the event). */
type Unread = DecisionRecord | number | RegisteredHandler | Lifecycle | string | undefined;

/**
 * A run's decision records, in the order their evaluations concluded. A
 * plain `proceed` (no reason, no display), which nobody is told about as it
 * happens, is kept as what its record is made of (its duration, its handler,
 * and where: the lifecycle point, step, tool call id and tool name, six
 * slots of one array) and built into its record only when the records are
 * read ({@link DecisionLog.records}): a run whose records nobody reads pays
 * for no record object per handler call. The event is not kept: it holds
 * what the step was given (its messages, the model's response), which
 * would then live as long as the run, and the garbage collector would copy
 * it at every collection the run meets instead of dropping it with its
 * step.
 */
export class DecisionLog {
  /** Stamped on the records it builds (the runtime's `policyVersion`). */
  readonly policyVersion: string | undefined;
  private readonly read: DecisionRecord[] = [];
  /**
   * Entries since the last read, in order: records, and proceeds as (durationMs, handler, lifecycle,
   * stepNumber, toolCallId, toolName); `undefined` while none is a proceed.
   */
  private unread: Unread[] | undefined;

  constructor(policyVersion: string | undefined) {
    this.policyVersion = policyVersion;
  }

  /** Keeps a record made already. */
  push(record: DecisionRecord): void {
    if (this.unread === undefined) this.read.push(record);
    else this.unread.push(record);
  }

  /** Keeps a plain proceed of `registered` on `event`, its record built when read. */
  proceeded(registered: RegisteredHandler, event: InterventionEvent, durationMs: number): void {
    const toolCall = 'toolCall' in event ? event.toolCall : undefined;
    const stepNumber = 'stepNumber' in event ? event.stepNumber : undefined;
    (this.unread ??= []).push(durationMs, registered, event.lifecycle, stepNumber, toolCall?.toolCallId, toolCall?.toolName);
  }

  /** Every record, in order (one array, the same each time, complete as of this read). */
  get records(): DecisionRecord[] {
    const unread = this.unread;
    if (unread === undefined) return this.read;
    this.unread = undefined;
    for (let index = 0; index < unread.length; index++) {
      const entry = unread[index] as Unread;
      if (typeof entry !== 'number') {
        this.read.push(entry as DecisionRecord);
        continue;
      }
      const registered = unread[++index] as RegisteredHandler;
      const lifecycle = unread[++index] as Lifecycle;
      const stepNumber = unread[++index] as number | undefined;
      const toolCallId = unread[++index] as string | undefined;
      const toolName = unread[++index] as string | undefined;
      this.read.push(recordAt(registered, lifecycle, stepNumber, toolCallId, toolName, entry, this.policyVersion));
    }
    return this.read;
  }
}
