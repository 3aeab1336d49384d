import type { NotificationSettings } from '../../core/settings'
import { askedQuestions, QUESTION_PERMISSION } from '../../core/question'
import { askSummary } from '../permission/ask-summary'
import { describeMessageError } from '../session/message-error'
import type { Happening } from './turn-watch'

/** What the system shows: `tag` is one per session and kind, so a newer notice replaces an older one (in every tab). */
export interface Notice {
  title: string
  body: string
  tag: string
}

/** The setting that governs a happening: a failed turn is the error kind, so one turn gives one notice. */
export type NoticeKind = Exclude<keyof NotificationSettings, 'enabled'>

export interface NoticeContext {
  visibility: DocumentVisibilityState
  settings: NotificationSettings
  /** The browser's permission for this origin; `unsupported` where there is no Notification API. */
  permission: NotificationPermission | 'unsupported'
  /** The session the user would open: for a subagent's ask, its top-level session. */
  sessionTitle: string
}

const TITLE_LIMIT = 80
const BODY_LIMIT = 200

export function noticeKind(happening: Happening): NoticeKind {
  if (happening.type === 'waiting') return 'waiting'
  return happening.outcome === 'failed' ? 'error' : 'turnEnded'
}

/**
 * Whether to tell the user about a happening, and in what words: only when this tab is hidden, notifications are on
 * with this kind on, and the browser allows them. Nothing otherwise (the title mark still tells, `title-mark.ts`).
 */
export function decideNotification(happening: Happening, context: NoticeContext): Notice | undefined {
  const { settings } = context
  const kind = noticeKind(happening)
  if (context.visibility !== 'hidden' || context.permission !== 'granted' || !settings.enabled || !settings[kind]) return undefined
  const session = `“${clip(context.sessionTitle.trim() || 'Untitled session', TITLE_LIMIT - 20)}”`
  const words = wording(happening, session)
  return { title: clip(words.title, TITLE_LIMIT), body: clip(words.body, BODY_LIMIT), tag: `tabcode:${happening.sessionID}:${kind}` }
}

function wording(happening: Happening, session: string): { title: string; body: string } {
  if (happening.type === 'waiting') {
    const { ask } = happening
    if (ask.permission === QUESTION_PERMISSION) {
      const first = askedQuestions(ask)?.[0]
      return { title: `${session} asks a question`, body: first?.question ?? 'The agent waits for your answer.' }
    }
    return { title: `${session} needs permission`, body: askSummary(ask).title }
  }
  switch (happening.outcome) {
    case 'finished':
      return { title: `${session} finished`, body: 'The turn is done.' }
    case 'stopped':
      return { title: `${session} stopped`, body: 'The turn was stopped before it finished.' }
    case 'failed':
      return { title: `${session} failed`, body: happening.error ? describeMessageError(happening.error).message : 'The turn ended with an error.' }
  }
}

function clip(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`
}
