import type { InboxListOptions, InterventionsInbox } from '../inbox/interventions-inbox.ts';
import { onDemand } from '../util/on-demand.ts';
import type { InboxDeps } from './inbox-deps.ts';

/** The inbox's work, loaded with its first use (most runs never list or answer from an inbox). */
const work = onDemand(() => import('./inbox-work.ts'));
const grantWork = onDemand(() => import('./inbox-grants.ts'));
const resumeWork = onDemand(() => import('./inbox-resume.ts'));

/** A runtime's inbox (`interventions.inbox`); `deps` undefined: the runtime has none (`approvalInbox: false`), and every method says so. */
export function createInterventionsInbox(deps: InboxDeps | undefined): InterventionsInbox {
  const off = () => {
    throw new TypeError('interventions.inbox: this runtime has no approval inbox (createInterventions({ approvalInbox: false })).');
  };
  return {
    // options left out (a JavaScript caller) reach the checks that name the method and `runtimeContext`
    list: async (options) => (deps === undefined ? off() : (await work()).list(deps, options ?? ({} as InboxListOptions))),
    get: async (id, options) => (deps === undefined ? off() : (await work()).get(deps, id, options?.runtimeContext)),
    answer: async (id, answer) => (deps === undefined ? off() : (await work()).answer(deps, id, answer)),
    withdraw: async (id, options) =>
      deps === undefined ? off() : (await work()).withdraw(deps, id, options?.runtimeContext, options?.reason),
    grants: async (options) => (deps === undefined ? off() : (await grantWork()).grants(deps, options?.runtimeContext)),
    revoke: async (id, options) => (deps === undefined ? off() : (await grantWork()).revoke(deps, id, options?.runtimeContext)),
    resume: async (messages) => (deps === undefined ? [...messages] : (await resumeWork()).resume(deps, messages)),
  };
}
