import { z } from 'zod'
import { SyncStatusSchema } from './sync-state'
import {
  ApprovalSchema,
  idSchema,
  InboxEntrySchema,
  MessageErrorSchema,
  MessageSchema,
  PartSchema,
  PermissionAskSchema,
  PermissionReplySchema,
  ProjectSchema,
  SessionInfoSchema,
  TodoSchema,
} from './schema'

export const SessionStatusSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('idle') }),
  z.object({ type: z.literal('busy') }),
  z.object({
    type: z.literal('retry'),
    attempt: z.number().int().positive(),
    message: z.string(),
    /** Epoch milliseconds of the next attempt, so every tab can count down on its own. */
    next: z.number(),
  }),
])
export type SessionStatus = z.infer<typeof SessionStatusSchema>

/** Every change the worker reports. Durable events follow a committed write; `part.delta` and `status` are live-only. */
export const SessionEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('session.created'), info: SessionInfoSchema }),
  z.object({ type: z.literal('session.updated'), info: SessionInfoSchema }),
  z.object({ type: z.literal('session.deleted'), info: SessionInfoSchema }),
  z.object({ type: z.literal('message.updated'), info: MessageSchema }),
  z.object({
    type: z.literal('message.removed'),
    sessionID: idSchema('session'),
    messageID: idSchema('message'),
  }),
  z.object({ type: z.literal('part.updated'), part: PartSchema }),
  z.object({
    type: z.literal('part.removed'),
    sessionID: idSchema('session'),
    messageID: idSchema('message'),
    partID: idSchema('part'),
  }),
  z.object({
    type: z.literal('part.delta'),
    sessionID: idSchema('session'),
    messageID: idSchema('message'),
    partID: idSchema('part'),
    field: z.literal('text'),
    delta: z.string(),
  }),
  z.object({ type: z.literal('session.status'), sessionID: idSchema('session'), status: SessionStatusSchema }),
  /** A compaction finished: `messageID` is its summary, from which the next request starts (opencode's `session.compacted`). */
  z.object({ type: z.literal('session.compacted'), sessionID: idSchema('session'), messageID: idSchema('message') }),
  z.object({ type: z.literal('todo.updated'), sessionID: idSchema('session'), todos: z.array(TodoSchema) }),
  /** A session's queued prompts changed (queued, edited, removed, or taken to run); the whole list, oldest first. */
  z.object({ type: z.literal('inbox.updated'), sessionID: idSchema('session'), entries: z.array(InboxEntrySchema) }),
  /** A tool asks the user; every tab showing the session shows the question. */
  z.object({ type: z.literal('permission.asked'), ask: PermissionAskSchema }),
  z.object({
    type: z.literal('permission.replied'),
    sessionID: idSchema('session'),
    askID: idSchema('permission'),
    reply: PermissionReplySchema,
  }),
  z.object({ type: z.literal('approval.updated'), projectID: idSchema('project'), approvals: z.array(ApprovalSchema) }),
  /** A project's row changed (the user trusted it, or stopped trusting it). */
  z.object({ type: z.literal('project.updated'), info: ProjectSchema }),
  /** A file or directory of the project's workspace changed (a tool, a command, an import). */
  z.object({
    type: z.literal('workspace.changed'),
    projectID: idSchema('project'),
    change: z.discriminatedUnion('type', [
      z.object({ type: z.literal('write'), path: z.string() }),
      z.object({ type: z.literal('remove'), path: z.string() }),
      z.object({ type: z.literal('mkdir'), path: z.string() }),
    ]),
  }),
  z.object({
    type: z.literal('session.error'),
    sessionID: idSchema('session').optional(),
    error: MessageErrorSchema,
  }),
  /** Sync's state changed (issue 31): one tab runs sync, every tab's indicator shows it. */
  z.object({ type: z.literal('sync.status'), status: SyncStatusSchema }),
])
export type SessionEvent = z.infer<typeof SessionEventSchema>
export type SessionEventType = SessionEvent['type']
export type EventOf<T extends SessionEventType> = Extract<SessionEvent, { type: T }>

export type EventSink = (event: SessionEvent) => void
