import { z } from 'zod'
import { describeIssues } from '../../core/errors'
import { makeIdGenerator, type IdKind } from '../../core/id'
import type { MessageWithParts } from '../../store/message-store'
import {
  FileDiffSchema,
  FilePartSchema,
  FinishReasonSchema,
  idSchema,
  MessageErrorSchema,
  MessageSchema,
  OutputFormatSchema,
  PartSchema,
  PermissionRulesetSchema,
  SessionInfoSchema,
  type FinishReason,
  type Message,
  type MessageError,
  type Part,
  type SessionInfo,
  type TextPart,
  type Tokens,
  type ToolState,
} from '../../core/schema'
import type { SessionTranscript } from '../transcript'
import { NotAnOpencodeExportError, OpencodeExportInvalidError } from './errors'

/**
 * Reading what `opencode export` prints (see opencode-format.ts), and the older and newer variants of it: rows missing
 * fields that later versions added get sensible defaults, fields we do not know are dropped, and a part we cannot
 * represent becomes a text note saying what it was, so one odd part never loses the whole session.
 */

type Loose = Record<string, unknown>

// Only the skeleton is checked up front; every field inside is read leniently below, then the result is validated
// against our own schemas.
const ExportShape = z.looseObject({
  info: z.looseObject({ id: z.string().min(1, 'the session has no id') }),
  messages: z.array(
    z.looseObject({
      info: z.looseObject({ id: z.string().optional(), role: z.enum(['user', 'assistant']) }),
      parts: z.array(z.unknown()).optional(),
    }),
  ),
})

/** The share-page data variant opencode's own import also reads: a flat list of typed rows. */
const ShareRowsShape = z.array(z.looseObject({ type: z.string(), data: z.looseObject({}) }))

/** How much of an unknown part is quoted in the note that stands in for it. */
const NOTE_JSON_LIMIT = 4_000

export function fromOpencodeExport(json: unknown): SessionTranscript {
  const document = readDocument(json)
  const shaped = ExportShape.safeParse(document)
  if (!shaped.success) throw new OpencodeExportInvalidError(describeIssues(shaped.error))
  return new Converter().session(shaped.data)
}

/**
 * Several exports at once (a session and the subagent sessions it started, say): each child is placed under its
 * parent when the parent is among them; the rest are returned as roots, in the given order.
 */
export function fromOpencodeExports(documents: unknown[]): SessionTranscript[] {
  const transcripts = documents.map(fromOpencodeExport)
  const byID = new Map(transcripts.map((transcript) => [transcript.info.id, transcript]))
  const roots: SessionTranscript[] = []
  for (const transcript of transcripts) {
    const parent = transcript.info.parentID ? byID.get(transcript.info.parentID) : undefined
    if (parent && parent !== transcript) (parent.children ??= []).push(transcript)
    else roots.push(transcript)
  }
  return roots
}

function readDocument(json: unknown): unknown {
  let value = json
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value)
    } catch {
      throw new NotAnOpencodeExportError('the text is not JSON')
    }
  }
  if (Array.isArray(value)) {
    const rows = ShareRowsShape.safeParse(value)
    if (rows.success && rows.data.some((row) => row.type === 'session')) return fromShareRows(rows.data)
    throw new NotAnOpencodeExportError('it is a list, not a session')
  }
  if (!isRecord(value)) throw new NotAnOpencodeExportError('it is not a JSON object')
  if (typeof value.format === 'string' && value.format.startsWith('tabcode')) {
    throw new NotAnOpencodeExportError('it is a tabcode export; open it as one')
  }
  if (!isRecord(value.info) || !Array.isArray(value.messages)) {
    throw new NotAnOpencodeExportError('it has no session "info" and "messages"')
  }
  return value
}

function fromShareRows(rows: { type: string; data: Loose }[]): unknown {
  const session = rows.find((row) => row.type === 'session')
  const messages = new Map<string, { info: Loose; parts: Loose[] }>()
  for (const row of rows) if (row.type === 'message') messages.set(String(row.data.id), { info: row.data, parts: [] })
  for (const row of rows) if (row.type === 'part') messages.get(String(row.data.messageID))?.parts.push(row.data)
  return { info: session?.data, messages: [...messages.values()] }
}

class Converter {
  private readonly ids = makeIdGenerator()
  /** Original message id → the id it has in the transcript (the same, unless it did not fit our id schema). */
  private readonly messageIDs = new Map<string, string>()
  private sessionID = ''
  private directory = '/'

  session(document: z.infer<typeof ExportShape>): SessionTranscript {
    const raw: Loose = document.info
    const firstMessageTime = stamp(asRecord(document.messages[0]?.info.time).created, 0)
    const rawTime = asRecord(raw.time)
    const created = stamp(rawTime.created, firstMessageTime)
    this.sessionID = this.keepID('session', raw.id, created)
    this.directory = nonEmpty(raw.directory) ?? '/'

    const messageIDs = document.messages.map((message) => {
      const id = this.keepID('message', message.info.id, stamp(asRecord(message.info.time).created, created))
      if (typeof message.info.id === 'string') this.messageIDs.set(message.info.id, id)
      return id
    })
    const messages: MessageWithParts[] = []
    let lastUserID: string | undefined
    for (const [index, message] of document.messages.entries()) {
      const info = this.message(message.info, messageIDs[index]!, index, created, lastUserID)
      if (info.role === 'user') lastUserID = info.id
      messages.push({ info, parts: (message.parts ?? []).map((part) => this.part(asRecord(part), info)) })
    }

    const model = asRecord(raw.model)
    const modelID = nonEmpty(model.id) ?? nonEmpty(model.modelID)
    const providerID = nonEmpty(model.providerID)
    const revert = asRecord(raw.revert)
    const revertMessage = typeof revert.messageID === 'string' ? this.messageIDs.get(revert.messageID) : undefined
    const info: SessionInfo = {
      id: this.sessionID,
      slug: nonEmpty(raw.slug) ?? 'imported',
      projectID: nonEmpty(raw.projectID) ?? 'global',
      ...optional('workspaceID', nonEmpty(raw.workspaceID)),
      directory: this.directory,
      ...optional('path', typeof raw.path === 'string' ? raw.path : undefined),
      ...optional('parentID', validID('session', raw.parentID)),
      title: typeof raw.title === 'string' ? raw.title : 'Imported opencode session',
      ...optional('agent', nonEmpty(raw.agent)),
      ...optional(
        'model',
        modelID && providerID ? { providerID, modelID, ...optional('variant', nonEmpty(model.variant)) } : undefined,
      ),
      version: nonEmpty(raw.version) ?? 'unknown',
      ...optional('summary', lenient(SessionInfoSchema.shape.summary, raw.summary)),
      ...optional('cost', count(raw.cost)),
      ...optional('tokens', isRecord(raw.tokens) ? tokens(raw.tokens) : undefined),
      ...optional('share', lenient(SessionInfoSchema.shape.share, raw.share)),
      ...optional('metadata', isRecord(raw.metadata) ? raw.metadata : undefined),
      ...optional('permission', lenient(PermissionRulesetSchema, raw.permission)),
      ...optional(
        'revert',
        revertMessage
          ? {
              messageID: revertMessage,
              ...optional('partID', validID('part', revert.partID)),
              ...optional('snapshot', nonEmpty(revert.snapshot)),
              ...optional('diff', typeof revert.diff === 'string' ? revert.diff : undefined),
            }
          : undefined,
      ),
      time: {
        created,
        updated: stamp(rawTime.updated, created),
        ...optional('compacting', count(rawTime.compacting)),
        ...optional('archived', typeof rawTime.archived === 'number' && Number.isFinite(rawTime.archived) ? rawTime.archived : undefined),
      },
    }
    const checked = SessionInfoSchema.safeParse(info)
    if (!checked.success) throw new OpencodeExportInvalidError(`session: ${describeIssues(checked.error)}`)
    return { info: checked.data, messages }
  }

  private message(raw: Loose, id: string, index: number, sessionCreated: number, lastUserID: string | undefined): Message {
    const time = asRecord(raw.time)
    const created = stamp(time.created, sessionCreated)
    let message: Message
    if (raw.role === 'user') {
      const model = asRecord(raw.model)
      const summary = asRecord(raw.summary)
      message = {
        id,
        sessionID: this.sessionID,
        role: 'user',
        time: { created },
        agent: nonEmpty(raw.agent) ?? 'build',
        model: {
          providerID: nonEmpty(model.providerID) ?? 'unknown',
          modelID: nonEmpty(model.modelID) ?? nonEmpty(model.id) ?? 'unknown',
          ...optional('variant', nonEmpty(model.variant)),
        },
        ...optional('format', lenient(OutputFormatSchema, raw.format)),
        ...optional(
          'summary',
          isRecord(raw.summary)
            ? {
                ...optional('title', typeof summary.title === 'string' ? summary.title : undefined),
                ...optional('body', typeof summary.body === 'string' ? summary.body : undefined),
                diffs: asArray(summary.diffs).flatMap((diff) => lenient(FileDiffSchema, diff) ?? []),
              }
            : undefined,
        ),
        ...optional('system', typeof raw.system === 'string' ? raw.system : undefined),
        ...optional('tools', lenient(z.record(z.string(), z.boolean()), raw.tools)),
      }
    } else {
      const path = asRecord(raw.path)
      const agent = nonEmpty(raw.agent) ?? nonEmpty(raw.mode) ?? 'build'
      const parentID = (typeof raw.parentID === 'string' && this.messageIDs.get(raw.parentID)) || lastUserID
      if (!parentID) throw new OpencodeExportInvalidError(`messages.${index}: an assistant message answers no user message`)
      message = {
        id,
        sessionID: this.sessionID,
        role: 'assistant',
        time: { created, ...optional('completed', count(time.completed)) },
        ...optional('error', messageError(raw.error)),
        parentID,
        modelID: nonEmpty(raw.modelID) ?? 'unknown',
        providerID: nonEmpty(raw.providerID) ?? 'unknown',
        agent,
        mode: nonEmpty(raw.mode) ?? agent,
        path: { cwd: typeof path.cwd === 'string' ? path.cwd : this.directory, root: typeof path.root === 'string' ? path.root : this.directory },
        cost: count(raw.cost) ?? 0,
        tokens: tokens(raw.tokens),
        ...optional('summary', typeof raw.summary === 'boolean' ? raw.summary : undefined),
        ...optional('structured', raw.structured),
        ...optional('variant', nonEmpty(raw.variant)),
        ...optional('finish', finishReason(raw.finish)),
      }
    }
    const checked = MessageSchema.safeParse(message)
    if (!checked.success) throw new OpencodeExportInvalidError(`messages.${index}: ${describeIssues(checked.error)}`)
    return checked.data
  }

  private part(raw: Loose, message: Message): Part {
    const created = message.time.created
    const base = {
      id: this.keepID('part', raw.id, created),
      sessionID: this.sessionID,
      messageID: message.id,
    }
    const candidate = this.knownPart(raw, base, created)
    if (candidate) {
      const checked = PartSchema.safeParse(candidate)
      if (checked.success) return checked.data
    }
    return note(raw, base)
  }

  /** The part in our shape with defaults for what older exports lack, or undefined for a type we do not know. */
  private knownPart(raw: Loose, base: PartBase, created: number): Loose | undefined {
    const time = asRecord(raw.time)
    switch (raw.type) {
      case 'text': {
        const { time: _time, ...rest } = raw
        return {
          ...rest,
          ...base,
          text: typeof raw.text === 'string' ? raw.text : '',
          ...optional('time', isRecord(raw.time) ? { start: stamp(time.start, created), ...optional('end', count(time.end)) } : undefined),
        }
      }
      case 'reasoning':
        return {
          ...raw,
          ...base,
          text: typeof raw.text === 'string' ? raw.text : '',
          time: { start: stamp(time.start, created), ...optional('end', count(time.end)) },
        }
      case 'tool':
        return { ...raw, ...base, state: toolState(asRecord(raw.state), created, base) }
      case 'step-finish':
        return { ...raw, ...base, reason: nonEmpty(raw.reason) ?? 'stop', cost: count(raw.cost) ?? 0, tokens: tokens(raw.tokens) }
      case 'compaction': {
        const tail = typeof raw.tail_start_id === 'string' ? this.messageIDs.get(raw.tail_start_id) : undefined
        const { tail_start_id: _tail, ...rest } = raw
        return { ...rest, ...base, auto: raw.auto === true, ...optional('tail_start_id', tail) }
      }
      case 'file':
      case 'agent':
      case 'subtask':
      case 'step-start':
      case 'snapshot':
      case 'patch':
      case 'retry':
        return { ...raw, ...base }
      default:
        return undefined
    }
  }

  /** The original id when it fits our id schema (opencode's do), else a new one: the importer renumbers anyway. */
  private keepID(kind: IdKind, value: unknown, time: number): string {
    return validID(kind, value) ?? (kind === 'session' ? this.ids.descending(kind, time) : this.ids.ascending(kind, time))
  }
}

interface PartBase {
  id: string
  sessionID: string
  messageID: string
}

function toolState(raw: Loose, created: number, base: PartBase): ToolState {
  const input = isRecord(raw.input) ? raw.input : {}
  const time = asRecord(raw.time)
  const start = stamp(time.start, created)
  const end = stamp(time.end, start)
  const metadata = isRecord(raw.metadata) ? raw.metadata : undefined
  switch (raw.status) {
    case 'pending':
      return { status: 'pending', input, raw: typeof raw.raw === 'string' ? raw.raw : '' }
    case 'running':
      return {
        status: 'running',
        input,
        ...optional('title', typeof raw.title === 'string' ? raw.title : undefined),
        ...optional('metadata', metadata),
        time: { start },
      }
    case 'completed':
      return {
        status: 'completed',
        input,
        output: typeof raw.output === 'string' ? raw.output : raw.output === undefined ? '' : JSON.stringify(raw.output),
        title: typeof raw.title === 'string' ? raw.title : '',
        metadata: metadata ?? {},
        time: { start, end, ...optional('compacted', count(time.compacted)) },
        ...optional(
          'attachments',
          Array.isArray(raw.attachments)
            ? raw.attachments.flatMap((attachment) => lenient(FilePartSchema, { ...asRecord(attachment), sessionID: base.sessionID, messageID: base.messageID }) ?? [])
            : undefined,
        ),
      }
    case 'error':
      return {
        status: 'error',
        input,
        error: typeof raw.error === 'string' ? raw.error : raw.error === undefined ? 'The tool failed.' : JSON.stringify(raw.error),
        ...optional('metadata', metadata),
        time: { start, end },
      }
    default:
      // A state a newer opencode may add: keep the call and say what it was rather than dropping it.
      return { status: 'error', input, error: `opencode tool state "${String(raw.status)}" is not supported here.`, time: { start, end } }
  }
}

/** Stands in for a part we cannot show: says what it was, keeps the original for a later version to read. */
function note(raw: Loose, base: PartBase): TextPart {
  const { id: _id, sessionID: _session, messageID: _message, ...fields } = raw
  const type = typeof raw.type === 'string' && raw.type ? raw.type : 'unknown'
  let json = JSON.stringify(fields, null, 2) ?? ''
  if (json.length > NOTE_JSON_LIMIT) json = json.slice(0, NOTE_JSON_LIMIT) + '\n…'
  return {
    ...base,
    type: 'text',
    text: `An opencode "${type}" part that tabcode cannot show:\n\n\`\`\`json\n${json}\n\`\`\``,
    synthetic: true,
    // It describes the session; the model never said or saw it.
    ignored: true,
    metadata: { opencode: { unsupportedPart: fields } },
  }
}

function messageError(value: unknown): MessageError | undefined {
  if (!isRecord(value)) return undefined
  const known = lenient(MessageErrorSchema, value)
  if (known) return known
  const data = asRecord(value.data)
  const message = typeof data.message === 'string' ? data.message : typeof value.message === 'string' ? value.message : undefined
  const name = typeof value.name === 'string' ? value.name : 'error'
  return { name: 'UnknownError', data: { message: message ?? `${name}: ${JSON.stringify(value.data ?? value)}` } }
}

function finishReason(value: unknown): FinishReason | undefined {
  if (typeof value !== 'string') return undefined
  return FinishReasonSchema.safeParse(value).data ?? 'other'
}

function tokens(value: unknown): Tokens {
  const raw = asRecord(value)
  const cache = asRecord(raw.cache)
  return {
    ...optional('total', count(raw.total)),
    input: count(raw.input) ?? 0,
    output: count(raw.output) ?? 0,
    reasoning: count(raw.reasoning) ?? 0,
    cache: { read: count(cache.read) ?? 0, write: count(cache.write) ?? 0 },
  }
}

function validID(kind: IdKind, value: unknown): string | undefined {
  return typeof value === 'string' && idSchema(kind).safeParse(value).success ? value : undefined
}

/** A schema's value, or undefined when it does not fit: optional fields are dropped rather than failing the import. */
function lenient<T>(schema: z.ZodType<T>, value: unknown): T | undefined {
  if (value === undefined || value === null) return undefined
  const result = schema.safeParse(value)
  return result.success ? result.data : undefined
}

/** A finite number of zero or more, or undefined. */
function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined
}

/** A time in whole milliseconds, or the fallback. */
function stamp(value: unknown, fallback: number): number {
  const number = count(value)
  return number === undefined ? fallback : Math.round(number)
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V }
}

function isRecord(value: unknown): value is Loose {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function asRecord(value: unknown): Loose {
  return isRecord(value) ? value : {}
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : []
}
