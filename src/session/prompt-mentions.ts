import type { AgentFile } from '../core/agent'
import type { PermissionRequest } from '../core/ports'
import type { PromptPartInput } from '../core/schema'
import { createFileTimes } from '../tools/file-times'
import { readTool } from '../tools/read'
import type { ToolContext } from '../tools/tool'
import type { Workspace } from '../workspace/workspace'
import { basename, resolvePath } from '../workspace/path'

/** `@token` at the start of the text or after white space or an opening bracket (so `me@example.com` is not one). */
const MENTION = /(^|[\s([{])@([^\s@]+)/g
/** Punctuation a sentence puts after a mention (`see @a.ts.`), tried without when the token names nothing. */
const TRAILING = /[.,;:!?)\]}'"]+$/

export interface MentionSources {
  /** The project's files; absent when the workspace can't be opened (mentions then stay text). */
  workspace?: Workspace
  /** Agents a mention may call (the subagents the user can pick). */
  subagents: readonly string[]
  sessionID: string
  /** The project's agent files as its trust lets them count: whose rules decide what a command's template may read. */
  agentFiles?: readonly AgentFile[]
}

/**
 * Whether the agent's rules allow a read the read tool would ask about (`read`, `external_directory`) without
 * asking: the user's own mentions need no answer (they named the file), but text the user did not write does.
 */
export type MentionGate = (request: Pick<PermissionRequest, 'permission' | 'patterns'>) => boolean

interface Mention {
  token: string
  start: number
  end: number
}

/** The `@` mentions in a typed text, each with where it was typed. */
export function findMentions(text: string): Mention[] {
  const found: Mention[] = []
  for (const match of text.matchAll(MENTION)) {
    const token = match[2]!
    const start = match.index! + match[1]!.length
    found.push({ token, start, end: start + 1 + token.length })
  }
  return found
}

/**
 * What opencode sends for a mentioned file, folder or agent (its prompt-time part expansion): a file is read with
 * the read tool (no permission ask: the user named it) and goes in as the call's text followed by the file part;
 * an image or PDF goes as its bytes; an agent as an agent part with an instruction to call it through `task`. The
 * typed text stays as it was; a token that names nothing is left as text.
 */
export async function resolveMentions(parts: PromptPartInput[], sources: MentionSources): Promise<PromptPartInput[]> {
  const resolved: PromptPartInput[] = []
  // `@a.ts` and `@a.ts,` in one prompt name one file: it goes in once.
  const expanded = new Set<string>()
  for (const part of parts) resolved.push(part, ...(await mentionParts(part, sources, expanded)))
  return resolved
}

/**
 * A project command's prompt: its filled `template` takes the place of what the user typed (`typed`, whose first
 * part is `/name arguments`). The mentions the user typed are read as in any prompt. The template's own were written
 * by the command's file, which the agent's tools may have written: each is read only where `readable` (the agent's
 * rules) allows it without asking, and one it does not is left as text, with a note that it was not read.
 */
export async function resolveCommandMentions(
  typed: PromptPartInput[],
  template: PromptPartInput,
  sources: MentionSources,
  readable: MentionGate,
): Promise<PromptPartInput[]> {
  const expanded = new Set<string>()
  const [first, ...rest] = typed
  const own = first ? await mentionParts(first, sources, expanded) : []
  const written = await mentionParts(template, sources, expanded, readable)
  const others: PromptPartInput[] = []
  for (const part of rest) others.push(part, ...(await mentionParts(part, sources, expanded)))
  return [template, ...own, ...written, ...others]
}

/** The parts a text part's mentions add (none for other parts), each file once across `expanded`. */
async function mentionParts(part: PromptPartInput, sources: MentionSources, expanded: Set<string>, readable?: MentionGate): Promise<PromptPartInput[]> {
  if (part.type !== 'text' || part.synthetic) return []
  const added: PromptPartInput[] = []
  for (const mention of findMentions(part.text)) {
    const found = await expand(mention, sources, readable)
    if (!found || expanded.has(found.key)) continue
    expanded.add(found.key)
    added.push(...found.parts)
  }
  return added
}

async function expand(mention: Mention, sources: MentionSources, readable?: MentionGate): Promise<{ key: string; parts: PromptPartInput[] } | undefined> {
  const source = (token: string) => ({ value: `@${token}`, start: mention.start, end: mention.start + 1 + token.length })
  const trimmed = mention.token.replace(TRAILING, '')
  for (const token of trimmed && trimmed !== mention.token ? [mention.token, trimmed] : [mention.token]) {
    if (sources.subagents.includes(token)) {
      return { key: `agent:${token}`, parts: [
        { type: 'agent', name: token, source: source(token) },
        {
          type: 'text',
          synthetic: true,
          text: `Use the message above and its context to write a prompt for the task tool, and call it with subagent: ${token}`,
        },
      ] }
    }
    const file = sources.workspace ? await readMentioned(sources.workspace, token, sources.sessionID, readable) : undefined
    if (file === 'refused') {
      const note = `@${token} was not read into this prompt: the command's template names it, and the agent's rules do not allow reading it without asking.`
      return { key: `refused:${token}`, parts: [{ type: 'text', synthetic: true, text: note }] }
    }
    if (file) {
      const fileSource = { type: 'file' as const, path: file.path, text: source(token) }
      const call = { type: 'text' as const, synthetic: true, text: `Called the Read tool with the following input: ${JSON.stringify({ filePath: file.path })}` }
      if (file.attachments.length > 0) {
        const media = file.attachments.map((attachment) => ({ type: 'file' as const, ...attachment, source: fileSource }))
        return { key: file.path, parts: [call, { type: 'text', synthetic: true, text: file.output }, ...media] }
      }
      const mime = file.directory ? 'application/x-directory' : 'text/plain'
      return {
        key: file.path,
        parts: [
          call,
          { type: 'text', synthetic: true, text: file.output },
          { type: 'file', mime, filename: basename(file.path), url: `file://${file.path}`, source: fileSource },
        ],
      }
    }
  }
  return undefined
}

/** Thrown by a mention's ask that its gate refuses: the read stops before it reads anything. */
class MentionRefused extends Error {}

async function readMentioned(workspace: Workspace, token: string, sessionID: string, readable?: MentionGate) {
  const path = resolvePath(workspace.root, token)
  const stat = await workspace.stat(path).catch(() => undefined)
  if (!stat) return undefined
  // The read tool's own questions (outside the project, then the read itself), answered by the gate.
  const ask = async (request: PermissionRequest) => {
    if (readable && !readable(request)) throw new MentionRefused()
  }
  const context: ToolContext = {
    sessionID,
    messageID: 'msg_mention',
    callID: 'mention',
    abort: new AbortController().signal,
    progress: () => {},
    workspace,
    agent: 'build',
    ask,
    files: createFileTimes(),
    subtask: () => Promise.reject(new Error('a mention does not run subagents')),
    outputs: { save: () => Promise.reject(new Error('a mention keeps no output')), read: async () => undefined },
    todos: { read: async () => [], write: async () => {} },
  } as unknown as ToolContext
  try {
    const result = await readTool.execute({ filePath: path }, context)
    return { path, directory: stat.type === 'directory', output: result.output, attachments: result.attachments ?? [] }
  } catch (error) {
    if (error instanceof MentionRefused) return 'refused' as const
    // A binary file the read tool refuses stays a plain mention; the model can still read it with its tools.
    return undefined
  }
}
