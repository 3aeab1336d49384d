import type { Message, Part, PartOf } from '../../core/schema'
import type { SessionTranscript } from '../transcript'
import type { OpencodeAssistantMessage, OpencodeExport, OpencodeMessage, OpencodeSessionInfo } from './opencode-format'

/**
 * Writes a session as `opencode export` would, for `opencode import`. Our ids are kept: opencode checks only their
 * prefix, and ours order by creation time the way its own do. opencode's export holds one session, so child sessions
 * (subagent runs) are left out here; `toOpencodeExports` gives them as further documents.
 */
export function toOpencodeExport(transcript: SessionTranscript): OpencodeExport {
  const { fork: _fork, model, revert, ...info } = transcript.info
  const session: OpencodeSessionInfo = {
    ...info,
    ...(model ? { model: { id: model.id ?? model.modelID, providerID: model.providerID, ...(model.variant ? { variant: model.variant } : {}) } } : {}),
    ...(revert ? { revert: withoutFiles(revert) } : {}),
  }
  // opencode types workspace ids (`wrk_…`); any other value would fail its import, and the importer's directory wins anyway.
  if (session.workspaceID !== undefined && !session.workspaceID.startsWith('wrk')) delete session.workspaceID
  return { info: session, messages: transcript.messages.map(({ info, parts }) => ({ info: message(info), parts: parts.map(part) })) }
}

/** The session and every descendant, parents before children, each a document `opencode import` reads. */
export function toOpencodeExports(transcript: SessionTranscript): OpencodeExport[] {
  return [toOpencodeExport(transcript), ...(transcript.children ?? []).flatMap(toOpencodeExports)]
}

function message(info: Message): OpencodeMessage['info'] {
  if (info.role === 'user') return info
  const assistant: OpencodeAssistantMessage = { ...info, mode: info.mode ?? info.agent }
  return assistant
}

function part(value: Part): Part {
  if (value.type === 'tool') return toolPart(value)
  if (value.type !== 'compaction') return value
  const { undone: _undone, ...rest } = value
  return rest
}

/**
 * A stopped command stored before its shape became opencode's carries an `interrupted` flag on its completed call,
 * which opencode never writes there (only on the error cleanup leaves): left out, its output's "User aborted the
 * command" note says it all. The flag on an errored call is opencode's own and stays.
 */
function toolPart(value: PartOf<'tool'>): PartOf<'tool'> {
  if (value.state.status !== 'completed' || !('interrupted' in value.state.metadata)) return value
  const { interrupted: _interrupted, ...metadata } = value.state.metadata
  return { ...value, state: { ...value.state, metadata } }
}

function withoutFiles<T extends { files?: unknown }>(revert: T): Omit<T, 'files'> {
  const { files: _files, ...rest } = revert
  return rest
}
