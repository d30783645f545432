import type { DecisionRecord } from '../actions/decision-record.ts';
import type { InterventionEvent } from '../actions/intervention-events.ts';
import type { Lifecycle } from '../actions/lifecycle.ts';
import { recordAt } from './record-of.ts';
import type { RegisteredHandler } from './registered-handler.ts';

/** What the log keeps until its records are read: records made already, and what plain proceeds are made of (never an event). */
type Unread = DecisionRecord | RegisteredHandler | Lifecycle | string | number | undefined;

/** The first chunk's slots; each later chunk has twice the slots of the one before, up to {@link MAX_CHUNK}. */
const FIRST_CHUNK = 32;
const MAX_CHUNK = 1024;

/**
 * A run's decision records, in the order their evaluations concluded. A
 * plain `proceed` (no reason, no display), which nobody is told about as it
 * happens, is kept as what its record is made of and built into its record
 * only when the records are read ({@link DecisionLog.records}): a run whose
 * records nobody reads pays for no record object per handler call.
 *
 * What is kept, in order, in chunks filled one after the other (a chunk is
 * never copied to grow): a record made already (one slot); where the next
 * plain proceeds were, when it is not where the last one was (four slots:
 * the lifecycle point, the step number, the tool call id and the tool name);
 * a plain proceed (two slots: its duration and its handler). The event is
 * not kept: it holds what the step was given (its messages, the model's
 * response), which would then live as long as the run, and the garbage
 * collector would copy it at every collection the run meets instead of
 * dropping it with its step.
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
  /** Where the last plain proceed kept was (`lifecycle` undefined: none since the last read). */
  private lifecycle: Lifecycle | undefined;
  private stepNumber: number | undefined;
  private toolCallId: string | undefined;
  private toolName: string | undefined;

  constructor(policyVersion: string | undefined) {
    this.policyVersion = policyVersion;
  }

  /** Keeps a record made already. */
  push(record: DecisionRecord): void {
    if (this.chunks === undefined) this.read.push(record);
    else this.keep(record);
  }

  /** Keeps a plain proceed of `registered` on `event`, its record built when read. */
  proceeded(registered: RegisteredHandler, event: InterventionEvent, durationMs: number): void {
    const { lifecycle } = event;
    const toolCall = 'toolCall' in event ? event.toolCall : undefined;
    const stepNumber = 'stepNumber' in event ? event.stepNumber : undefined;
    const toolCallId = toolCall?.toolCallId;
    const toolName = toolCall?.toolName;
    if (lifecycle !== this.lifecycle || stepNumber !== this.stepNumber || toolCallId !== this.toolCallId || toolName !== this.toolName) {
      this.lifecycle = lifecycle;
      this.stepNumber = stepNumber;
      this.toolCallId = toolCallId;
      this.toolName = toolName;
      this.keep(lifecycle);
      this.keep(stepNumber);
      this.keep(toolCallId);
      this.keep(toolName);
    }
    this.keep(durationMs);
    this.keep(registered);
  }

  /** Every record, in order (one array, the same each time, complete as of this read). */
  get records(): DecisionRecord[] {
    const chunks = this.chunks;
    if (chunks === undefined) return this.read;
    const last = this.chunk;
    const lastUsed = this.used;
    this.chunks = undefined;
    this.chunk = [];
    this.used = 0;
    this.lifecycle = undefined;
    let lifecycle: Lifecycle = 'beforeToolCall';
    let stepNumber: number | undefined;
    let toolCallId: string | undefined;
    let toolName: string | undefined;
    // the entries as one sequence across the chunks
    let chunk = 0;
    let at = 0;
    const next = (): Unread => {
      if (at === (chunks[chunk] as Unread[]).length) {
        chunk++;
        at = 0;
      }
      return (chunks[chunk] as Unread[])[at++];
    };
    const isOver = () => chunks[chunk] === last && at === lastUsed;
    while (!isOver()) {
      const entry = next();
      if (typeof entry === 'string') {
        lifecycle = entry as Lifecycle;
        stepNumber = next() as number | undefined;
        toolCallId = next() as string | undefined;
        toolName = next() as string | undefined;
      } else if (typeof entry === 'number') {
        const registered = next() as RegisteredHandler;
        this.read.push(recordAt(registered, lifecycle, stepNumber, toolCallId, toolName, entry, this.policyVersion));
      } else {
        this.read.push(entry as DecisionRecord);
      }
    }
    return this.read;
  }

  /** One slot, in the chunk being filled (a new chunk once it is full). */
  private keep(value: Unread): void {
    if (this.used === this.chunk.length) {
      const chunks = (this.chunks ??= []);
      this.chunk = new Array(Math.min(FIRST_CHUNK << chunks.length, MAX_CHUNK));
      this.used = 0;
      chunks.push(this.chunk);
    }
    this.chunk[this.used++] = value;
  }
}
