/**
 * The call settings a `beforeInvocation` / `beforeModelCall` handler may
 * change (`ModelCallSettings`), by name, as the SDK's options spell them.
 */
export const SETTING_KEYS = [
  'maxOutputTokens',
  'temperature',
  'topP',
  'topK',
  'presencePenalty',
  'frequencyPenalty',
  'stopSequences',
  'seed',
  'reasoning',
  'toolChoice',
] as const;
