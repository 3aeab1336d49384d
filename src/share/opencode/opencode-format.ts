import type { AssistantMessage, Part, SessionInfo, UserMessage } from '../../core/schema'

/**
 * The JSON `opencode export <sessionID>` prints and `opencode import <file>` reads (opencode 1.x; the fixtures in
 * e2e/testing/opencode/ were made with 1.18.33): one session row and its messages, each with its parts, oldest
 * first. Our rows mirror opencode's, so these types are ours with the few places where the two differ.
 *
 * `opencode import` checks every row against its own schemas, then keeps the ids as they are (it only checks their
 * `ses`/`msg`/`prt` prefix), takes the project and directory from where it runs, and skips rows whose id it already
 * has. It orders messages by creation time and parts by id, as we do.
 */
export interface OpencodeExport {
  info: OpencodeSessionInfo
  messages: OpencodeMessage[]
}

/** opencode names the session's model `{id, providerID}`; it has no `fork`, and its revert marker no `files`. */
export type OpencodeSessionInfo = Omit<SessionInfo, 'model' | 'fork' | 'revert'> & {
  model?: { id: string; providerID: string; variant?: string }
  revert?: { messageID: string; partID?: string; snapshot?: string; diff?: string }
}

/** opencode requires `mode` on assistant messages (the legacy twin of `agent`). */
export type OpencodeAssistantMessage = Omit<AssistantMessage, 'mode' | 'finish'> & { mode: string; finish?: string }

export interface OpencodeMessage {
  info: UserMessage | OpencodeAssistantMessage
  /** Our parts minus what opencode has no field for (a compaction's `undone`). */
  parts: Part[]
}
