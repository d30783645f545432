import { onDemand } from '../util/on-demand.ts';

/**
 * The replay of a whole response as a stream (src/model/replay-response.ts),
 * loaded with the first streamed step served without a provider stream (a
 * `preRequest` hook's response, a denied or held step), then at hand.
 */
export const responseReplay = onDemand(() => import('./replay-response.ts'));
