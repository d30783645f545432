/**
 * What the scripted local model "thinks": its next turn, decided from the
 * conversation it was sent (never a fixed sequence), so approving and
 * refusing both lead somewhere sensible, and it quotes what it read.
 *
 * - "clean up /some/dir" → `run_shell rm -rf …`; once it reads that the shell
 *   was blocked → `delete_file` (which needs a human's approval); once it reads
 *   the result, or the human's refusal → a final answer saying what happened.
 * - "email …" → `send_email` without a subject; once it reads the feedback →
 *   `send_email` again with a subject; once it reads the result → a final answer.
 * - "deploy …" → `deploy` (which needs a manager's approval); once it reads the
 *   result → a final answer.
 * - "… report …" → a long status report, streamed slowly: an answer to stop.
 */
import type { ConversationItem, Turn } from './scripted-openai-server';

type ToolCallItem = Extract<ConversationItem, { kind: 'tool-call' }>;
type ToolResultItem = Extract<ConversationItem, { kind: 'tool-result' }>;

const HELP =
  'I am the scripted local model. Try "Clean up /tmp/build-cache" (a blocked shell command, then a deletion ' +
  'that waits for your approval), "Email the team that the build is green" (an email the validator sends back ' +
  'for a subject line), "Deploy the build to production" (a manager approves) or "Write a status report" (a slow ' +
  'answer you can stop). Set OPENAI_API_KEY to talk to a real model.';

export function respond(conversation: readonly ConversationItem[]): Turn {
  let lastUser = -1;
  conversation.forEach((item, index) => {
    if (item.kind === 'user') lastUser = index;
  });
  const prompt = lastUser >= 0 ? (conversation[lastUser] as { text: string }).text : '';
  // what happened since the user spoke: this turn's calls and their results
  const turn = conversation.slice(lastUser + 1);
  const calls = (name: string) => turn.filter((item): item is ToolCallItem => item.kind === 'tool-call' && item.name === name);
  const resultOf = (call: ToolCallItem | undefined) =>
    call === undefined
      ? undefined
      : unwrap(turn.find((item): item is ToolResultItem => item.kind === 'tool-result' && item.callId === call.callId)?.output);

  if (/\b(clean|delete|remove|wipe|tidy)\b/i.test(prompt)) return cleanUp(prompt, calls, resultOf);
  if (/\b(e-?mail|mail|write to)\b/i.test(prompt)) return email(prompt, calls, resultOf);
  if (/\bdeploy\b/i.test(prompt)) return deploy(prompt, calls, resultOf);
  if (/\breport\b/i.test(prompt)) return { text: REPORT, paceMs: 120 };
  return { text: HELP };
}

/** A long answer, streamed a word every 120 ms (some 8 s): long enough to press Stop. */
const REPORT =
  'Status report. The build is green on the main branch and every test passed on the last run. ' +
  'The cache under /tmp/build-cache has grown to several gigabytes and could be cleaned up. ' +
  'Two deployments went to staging this week; production still runs the previous release. ' +
  'The email validator sent back one message without a subject line, which was then sent with one. ' +
  'No shell command ran: the shell is off in this chat. Next steps: clean up the cache, then ask a manager to approve the deployment.';

type Calls = (name: string) => ToolCallItem[];
type ResultOf = (call: ToolCallItem | undefined) => string | undefined;

function cleanUp(prompt: string, calls: Calls, resultOf: ResultOf): Turn {
  const path = /(\/[\w./-]*[\w/-])/.exec(prompt)?.[1] ?? '/tmp/build-cache';
  const shell = calls('run_shell').at(-1);
  if (shell === undefined) {
    return { text: `Cleaning up ${path}.`, toolCalls: [{ name: 'run_shell', input: { command: `rm -rf ${path}` } }] };
  }
  const shellResult = resultOf(shell) ?? '';
  const shellBlocked = /not executed|denied/i.test(shellResult);
  if (!shellBlocked) return { text: `Done: \`${String(shell.input.command)}\` returned "${oneLine(shellResult)}".` };

  const blockedBecause = /Reason: ([^\n]*)/.exec(shellResult)?.[1]?.trim() ?? oneLine(shellResult);
  const deletion = calls('delete_file').at(-1);
  if (deletion === undefined) {
    return {
      text: `The shell command was blocked ("${blockedBecause}"), so I will delete ${path} with the delete_file tool instead.`,
      toolCalls: [{ name: 'delete_file', input: { path } }],
    };
  }
  const deletionResult = resultOf(deletion) ?? '';
  if (/^deleted /i.test(deletionResult)) {
    return { text: `Done. delete_file reported: "${deletionResult}". (The shell command had been blocked: "${blockedBecause}")` };
  }
  // refused by the human: ai-interventions words it ("The user did not approve … Their reason: …")
  const theirReason = /Their reason: ([^\n]*)/.exec(deletionResult)?.[1]?.trim();
  const refused = /did not approve/i.test(deletionResult)
    ? `you did not approve the deletion${theirReason ? ` (your reason: "${theirReason}")` : ''}`
    : `the deletion was not carried out ("${oneLine(deletionResult)}")`;
  return { text: `Understood, I did not delete ${path}: ${refused}. Nothing was removed.` };
}

function deploy(prompt: string, calls: Calls, resultOf: ResultOf): Turn {
  const environment = /\b(production|staging)\b/i.exec(prompt)?.[1]?.toLowerCase() ?? 'production';
  const call = calls('deploy').at(-1);
  if (call === undefined) {
    return { text: `Deploying the build to ${environment}.`, toolCalls: [{ name: 'deploy', input: { environment } }] };
  }
  const result = resultOf(call) ?? '';
  if (/^deployed /i.test(result)) return { text: `Done. deploy reported: "${result}".` };
  return { text: `I did not deploy: "${oneLine(result)}".` };
}

function email(prompt: string, calls: Calls, resultOf: ResultOf): Turn {
  const to = /[\w.+-]+@[\w-]+(\.[\w-]+)+/.exec(prompt)?.[0] ?? 'team@example.com';
  const about = /\bthat (.+)$/i.exec(prompt.trim())?.[1]?.replace(/[.!]+$/, '') ?? prompt.trim();
  const body = `Hi team,\n\n${about.charAt(0).toUpperCase()}${about.slice(1)}.\n\nSent from the ai-interventions example.`;
  const sends = calls('send_email');
  const last = sends.at(-1);
  if (last === undefined) {
    // the first draft forgets the subject line
    return { text: `Sending the email to ${to}.`, toolCalls: [{ name: 'send_email', input: { to, body } }] };
  }
  const result = resultOf(last) ?? '';
  if (/not executed/i.test(result) && sends.length < 3) {
    const feedback = /\[[\w-]+\] ([^\n]*)/.exec(result)?.[1]?.trim() ?? oneLine(result);
    const subject = `Update: ${about}`.slice(0, 60);
    return {
      text: `The email was sent back with feedback ("${feedback}"). Retrying with the subject "${subject}".`,
      toolCalls: [{ name: 'send_email', input: { to, subject, body } }],
    };
  }
  if (/not executed|denied/i.test(result)) return { text: `I could not send the email: "${oneLine(result)}".` };
  return { text: `Email sent. send_email reported: "${result}".` };
}

/**
 * A tool result as text. A call denied in an earlier request comes back from
 * the UI messages as an error result, which the provider sends as
 * `{"error":"…"}`: read the text inside.
 */
function unwrap(output: string | undefined): string | undefined {
  if (output === undefined || !output.startsWith('{')) return output;
  try {
    const parsed: unknown = JSON.parse(output);
    const error = typeof parsed === 'object' && parsed !== null ? (parsed as { error?: unknown }).error : undefined;
    return typeof error === 'string' ? error : output;
  } catch {
    return output;
  }
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
