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
}

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
  for (const part of parts) {
    resolved.push(part)
    if (part.type !== 'text' || part.synthetic) continue
    for (const mention of findMentions(part.text)) {
      const found = await expand(mention, sources)
      if (!found || expanded.has(found.key)) continue
      expanded.add(found.key)
      resolved.push(...found.parts)
    }
  }
  return resolved
}

async function expand(mention: Mention, sources: MentionSources): Promise<{ key: string; parts: PromptPartInput[] } | undefined> {
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
    const file = sources.workspace ? await readMentioned(sources.workspace, token, sources.sessionID) : undefined
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

async function readMentioned(workspace: Workspace, token: string, sessionID: string) {
  const path = resolvePath(workspace.root, token)
  const stat = await workspace.stat(path).catch(() => undefined)
  if (!stat) return undefined
  const context: ToolContext = {
    sessionID,
    messageID: 'msg_mention',
    callID: 'mention',
    abort: new AbortController().signal,
    progress: () => {},
    workspace,
    agent: 'build',
    ask: async () => {},
    files: createFileTimes(),
    subtask: () => Promise.reject(new Error('a mention does not run subagents')),
    outputs: { save: () => Promise.reject(new Error('a mention keeps no output')), read: async () => undefined },
    todos: { read: async () => [], write: async () => {} },
  } as unknown as ToolContext
  try {
    const result = await readTool.execute({ filePath: path }, context)
    return { path, directory: stat.type === 'directory', output: result.output, attachments: result.attachments ?? [] }
  } catch {
    // A binary file the read tool refuses stays a plain mention; the model can still read it with its tools.
    return undefined
  }
}
