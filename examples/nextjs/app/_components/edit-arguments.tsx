'use client';

import { useState } from 'react';
import { inputProblem } from '../../lib/tool-inputs';

/**
 * A tool call's arguments, edited as JSON and checked against the tool's
 * schema as they are typed (a mistake is explained where it is made), then
 * approved: in the chat's approval card and in the inbox alike.
 */
export function EditArguments({
  toolName,
  input,
  disabled = false,
  onApprove,
}: {
  toolName: string;
  /** The arguments to start from. */
  input: unknown;
  disabled?: boolean;
  onApprove: (input: unknown) => void;
}) {
  const [draft, setDraft] = useState(() => JSON.stringify(input));
  const problem = inputProblem(toolName, draft);
  return (
    <span className="edit">
      <textarea
        data-testid="edit-input"
        aria-label={`Arguments for ${toolName}`}
        aria-invalid={problem !== undefined}
        value={draft}
        onChange={(event) => setDraft(event.currentTarget.value)}
      />
      {problem !== undefined && (
        <span className="edit-problem" role="status" data-testid="edit-problem">
          {problem}
        </span>
      )}
      <button
        type="button"
        data-testid="approve-edited-button"
        disabled={disabled || problem !== undefined}
        onClick={() => problem === undefined && onApprove(JSON.parse(draft) as unknown)}
      >
        Approve these arguments
      </button>
    </span>
  );
}
