/**
 * The chat's tools. They are simulated (nothing is deleted or sent), and
 * every execution is recorded in the activity log, per chat, so you (and the
 * end-to-end tests) can check what really ran. Their arguments' schemas are
 * in ./tool-inputs.ts, which the page uses to check a person's edit.
 */
import { tool } from 'ai';
import { recordExecution } from './activity-log';
import { TOOL_INPUTS } from './tool-inputs';

export function createTools(chatId: string) {
  return {
    run_shell: tool({
      description: 'Run a shell command on the server (simulated).',
      inputSchema: TOOL_INPUTS.run_shell,
      execute: async ({ command }) => {
        recordExecution(chatId, 'run_shell', { command });
        return `ran: ${command}`;
      },
    }),
    delete_file: tool({
      description: 'Delete a file or a directory (simulated).',
      inputSchema: TOOL_INPUTS.delete_file,
      execute: async ({ path }) => {
        recordExecution(chatId, 'delete_file', { path });
        return `deleted ${path}`;
      },
    }),
    deploy: tool({
      description: 'Deploy the current build to an environment (simulated).',
      inputSchema: TOOL_INPUTS.deploy,
      execute: async ({ environment }) => {
        recordExecution(chatId, 'deploy', { environment });
        return `deployed to ${environment}`;
      },
    }),
    send_email: tool({
      description: 'Send an email (simulated).',
      inputSchema: TOOL_INPUTS.send_email,
      execute: async ({ to, subject, body }) => {
        recordExecution(chatId, 'send_email', { to, subject, body });
        return `email "${subject ?? ''}" sent to ${to}`;
      },
    }),
  };
}

export type ChatTools = ReturnType<typeof createTools>;
