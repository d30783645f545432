/**
 * The chat's tools. They are simulated (nothing is deleted or sent), and
 * every execution is recorded in the activity log, per chat, so you (and the
 * end-to-end tests) can check what really ran.
 */
import { tool } from 'ai';
import { z } from 'zod';
import { recordExecution } from './activity-log';

export function createTools(chatId: string) {
  return {
    run_shell: tool({
      description: 'Run a shell command on the server (simulated).',
      inputSchema: z.object({ command: z.string().describe('The command line to run') }),
      execute: async ({ command }) => {
        recordExecution(chatId, 'run_shell', { command });
        return `ran: ${command}`;
      },
    }),
    delete_file: tool({
      description: 'Delete a file or a directory (simulated).',
      inputSchema: z.object({ path: z.string().describe('Absolute path of the file or directory') }),
      execute: async ({ path }) => {
        recordExecution(chatId, 'delete_file', { path });
        return `deleted ${path}`;
      },
    }),
    deploy: tool({
      description: 'Deploy the current build to an environment (simulated).',
      inputSchema: z.object({ environment: z.enum(['staging', 'production']).describe('Where to deploy') }),
      execute: async ({ environment }) => {
        recordExecution(chatId, 'deploy', { environment });
        return `deployed to ${environment}`;
      },
    }),
    send_email: tool({
      description: 'Send an email (simulated).',
      inputSchema: z.object({
        to: z.string().describe('Recipient address'),
        subject: z.string().optional().describe('Subject line'),
        body: z.string().describe('Plain-text body'),
      }),
      execute: async ({ to, subject, body }) => {
        recordExecution(chatId, 'send_email', { to, subject, body });
        return `email "${subject ?? ''}" sent to ${to}`;
      },
    }),
  };
}

export type ChatTools = ReturnType<typeof createTools>;
