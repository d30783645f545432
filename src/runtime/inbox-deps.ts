import type { ApprovalInbox } from '../inbox/approval-inbox.ts';
import type { ApprovalLedger } from '../ledger/approval-ledger.ts';
import type { RuntimeSnapshot } from '../run/runtime-snapshot.ts';

/** What the inbox of a runtime works with. */
export interface InboxDeps {
  readonly inbox: ApprovalInbox;
  readonly ledger: ApprovalLedger | undefined;
  readonly snapshot: () => RuntimeSnapshot;
}
