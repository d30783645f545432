import type { DecisionRecord } from '../actions/decision-record.ts';
import type { InterventionEvent } from '../actions/intervention-events.ts';
import type { Lifecycle } from '../actions/lifecycle.ts';
import { recordAt } from './record-of.ts';
import type { RegisteredHandler } from './registered-handler.ts';

/** What the log keeps until its records are read: records made already, and what plain proceeds are made of (never an event). */
type Unread = DecisionRecord | RegisteredHandler | Lifecycle | string | number | undefined;

/** The slots of a decision log's first chunks (a short run's), and of every later one (see `DecisionLog.room`). */
const FIRST_CHUNK_SLOTS: readonly number[] = [32, 64];
const CHUNK_SLOTS = 128;

/**
 * A run's decision records, in the order their evaluations concluded. A
 * plain `proceed` (no reason, no display), which nobody is told about as it
 * happens, is kept as what its record is made of and built into its record
 * only when the records are read ({@link DecisionLog.records}): a run whose
 * records nobody reads pays for no record object per handler call.
 *
 * What is kept, in order, in chunks filled one after the other (a chunk is
 * never copied to grow, and no entry spans two): a record made already (one
 * slot); where the next plain proceeds were, once per event (four slots: the
 * lifecycle point, the step number, the tool call id and the tool name); a
 * plain proceed (two slots: its duration and its handler). No event is kept
 * past the next one: it holds what the step was given (its messages, the
 * model's response), which would then live as long as the run, and the
 * garbage collector would copy it at every collection the run meets instead
 * of dropping it with its step.
 */
export class DecisionLog {
  /** Stamped on the records it builds (the runtime's `policyVersion`). */
  readonly policyVersion: string | undefined;
  private readonly read: DecisionRecord[] = [];
  /** The chunks of entries since the last read (`undefined` while none is a proceed), the one being filled last. */
  private chunks: Unread[][] | undefined;
  /** The chunk being filled, and how many of its slots are. */
  private chunk: Unread[] = [];
  private used = 0;
  /** The event of the last plain proceed kept (its place is the last one kept), until the next. */
  private event: InterventionEvent | undefined;

  constructor(policyVersion: string | undefined) {
    this.policyVersion = policyVersion;
  }

  /** Keeps a record made already. */
  push(record: DecisionRecord): void {
    if (this.chunks === undefined) this.read.push(record);
    else this.room(1)[this.used++] = record;
  }

  /** Keeps a plain proceed of `registered` on `event`, its record built when read. */
  proceeded(registered: RegisteredHandler, event: InterventionEvent, durationMs: number): void {
    const fresh = event !== this.event;
    const chunk = this.room(fresh ? 6 : 2);
    if (fresh) {
      this.event = event;
      const toolCall = 'toolCall' in event ? event.toolCall : undefined;
      chunk[this.used++] = event.lifecycle;
      chunk[this.used++] = 'stepNumber' in event ? event.stepNumber : undefined;
      chunk[this.used++] = toolCall?.toolCallId;
      chunk[this.used++] = toolCall?.toolName;
    }
    chunk[this.used++] = durationMs;
    chunk[this.used++] = registered;
  }

  /** Every record, in order (one array, the same each time, complete as of this read). */
  get records(): DecisionRecord[] {
    const chunks = this.chunks;
    if (chunks === undefined) return this.read;
    this.chunk.length = this.used;
    this.chunks = undefined;
    this.chunk = [];
    this.used = 0;
    this.event = undefined;
    let lifecycle: Lifecycle = 'beforeToolCall';
    let stepNumber: number | undefined;
    let toolCallId: string | undefined;
    let toolName: string | undefined;
    for (const chunk of chunks) {
      for (let at = 0; at < chunk.length; at++) {
        const entry = chunk[at];
        if (typeof entry === 'string') {
          lifecycle = entry as Lifecycle;
          stepNumber = chunk[++at] as number | undefined;
          toolCallId = chunk[++at] as string | undefined;
          toolName = chunk[++at] as string | undefined;
        } else if (typeof entry === 'number') {
          const registered = chunk[++at] as RegisteredHandler;
          this.read.push(recordAt(registered, lifecycle, stepNumber, toolCallId, toolName, entry, this.policyVersion));
        } else {
          this.read.push(entry as DecisionRecord);
        }
      }
    }
    return this.read;
  }

  /**
   * The chunk with room for `slots` more: a new one (32 slots, then 64, then 128 each) when the one being
   * filled has not. A handler call takes six slots at most, so a long run's chunks end nearly full, where
   * chunks doubling in size (as they did, up to 1,024) leave up to half of the last one empty: 0.7 KB a
   * step of a 50-step streamText run with one handler of four methods.
   */
  private room(slots: number): Unread[] {
    if (this.used + slots > this.chunk.length) {
      // the chunk ends where its entries do
      this.chunk.length = this.used;
      const chunks = (this.chunks ??= []);
      this.chunk = new Array(FIRST_CHUNK_SLOTS[chunks.length] ?? CHUNK_SLOTS);
      this.used = 0;
      chunks.push(this.chunk);
    }
    return this.chunk;
  }
}
