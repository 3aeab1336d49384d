import type { SerializedError } from '../errors'
import type { SessionEvent } from '../event'

/**
 * Bump on any incompatible change to the contract (any slice in this folder): a page and a worker (or another tab)
 * from different builds then refuse each other with a clear "reload" instead of misbehaving.
 */
// 2: exports (`exportSession`, `exportBackup`) carry their JSON as a Blob in `data`, no longer as `text` (issue 18).
// 3: the `answer` reply to a question ask, `searchProjectFiles` and `listProjectCommands` (issue 19).
// 4: `readAttachment`, prompt attachments as `tabcode-blob:` file parts, MCP servers, project agents, `createProject`
//    answering what it left out (issues 19, 20).
// 5: project trust (`projectTrust`, `setProjectTrust`, the `project.updated` event, projects' `trust` and `origin`, the
//    allow rules the user reviewed), a project command's confirmation (`PromptInput.command`), and `answerPrompt`
//    (issue 27).
// 6: a folder on disk as a project (`createProject` from a `disk` source, `projectFolder`, `connectFolder`, `refreshFolder`, `outsideEdits`; issue 30).
// 7: git remotes (`listGitTokenHosts`, `removeGitToken`, `answerGitToken`, the `git-token-wanted` notice, the
//    `git.corsProxy` setting) (issue 30).
// 8: sync (`SyncApi`: `syncStatus`, `enableSync`, …, the `sync.status` event) (issue 31).
// 9: an event envelope carries a batch (`events`), not one event (issue 32).
// 10: `usageReport`, tokens and cost by day, model, project and agent (issue 33).
// 11: long operations take an `operationID` and a progress callback, and `cancelOperation` stops them (issue 33).
// 12: model facts (`modelFacts`, `updateModelFacts`; issue 33).
export const PROTOCOL_VERSION = 12

/** Cross-tab live events travel on this channel; the envelope carries the protocol so stale tabs can be told apart. */
export const EVENT_CHANNEL = 'tabcode:events'

export interface EventEnvelope {
  protocol: number
  /** In the order they happened: a worker posts the events of one burst together (worker/event-outbox.ts). */
  events: SessionEvent[]
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: SerializedError }

/** What the worker implements for a slice of the contract: each method may answer synchronously or with a promise. */
export type Handlers<Api> = {
  [K in keyof Api]: Api[K] extends (...args: infer A) => infer R ? (...args: A) => R | Promise<R> : never
}
