import type { DecisionRecord } from '../actions/decision-record.ts';
import type { InterventionEvent } from '../actions/intervention-events.ts';
import { recordOf } from './record-of.ts';
import type { RegisteredHandler } from './registered-handler.ts';

/** What the log keeps of a plain proceed until its record is read: how long, who, on what. */
type Unread = DecisionRecord | number | RegisteredHandler | InterventionEvent;

/**
 * A run's decision records, in the order their evaluations concluded. A
 * plain `proceed` (no reason, no display), which nobody is told about as it
 * happens, is kept as what its record is made of (its duration, handler and
 * event: three slots of one array) and built into its record only when the
 * records are read ({@link DecisionLog.records}): a run whose records
 * nobody reads pays for no record object per handler call.
 */
export class DecisionLog {
  /** Stamped on the records it builds (the runtime's `policyVersion`). */
  readonly policyVersion: string | undefined;
  private readonly read: DecisionRecord[] = [];
  /** Entries since the last read, in order: records, and proceeds as (durationMs, handler, event); `undefined` while none is a proceed. */
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
    (this.unread ??= []).push(durationMs, registered, event);
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
      const event = unread[++index] as InterventionEvent;
      this.read.push(recordOf(registered, event, entry, this.policyVersion));
    }
    return this.read;
  }
}
