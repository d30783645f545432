'use client';

import type { InterventionData } from 'ai-interventions/client';
import type { DemoUser } from '../../lib/users';
import { decisionLine } from '../../lib/words';

/** Every decision of the chat, from the data-intervention parts the server streamed, in words for the person signed in. */
export function DecisionLog({ decisions, me }: { decisions: readonly InterventionData[]; me: DemoUser }) {
  if (decisions.length === 0) return null;
  return (
    <aside className="decision-log" data-testid="decision-log">
      <h2>Decisions</h2>
      <ol>
        {decisions.map((decision, index) => (
          <li
            key={index}
            data-testid="decision"
            data-tool={decision.toolName}
            data-action={decision.action}
            data-handler={decision.handler ?? ''}
            data-answer={decision.answer === undefined ? '' : decision.answer.approved ? 'approved' : 'refused'}
            data-answered-by={decision.approval?.answeredBy ?? ''}
            data-asked-by={decision.approval?.askedBy ?? ''}
          >
            {decisionLine(decision, decisions.slice(0, index), me)}
          </li>
        ))}
      </ol>
    </aside>
  );
}
