import type { ToolState } from '../../../core/schema'
import { askedQuestions, QUESTION_PERMISSION } from '../../../core/question'
import { formatNumber } from './number'
import { stoppedByUser } from '../../../core/shell-notes'
import { DENIED_RULES_TEXT, DENIED_TEXT } from '../../../core/permission/errors'

// Input fields that best say what a call is about, in the order tools usually name them.
const SUBJECT_KEYS = ['description', 'command', 'filePath', 'path', 'pattern', 'url', 'query', 'prompt']
const SUBJECT_MAX = 120

/**
 * A one-line subject for the card: what the call was about in the user's terms, else the tool's own title, else the
 * most telling input field. The titles opencode's tools report are written for its own UI and mislead on a card:
 * glob's is the folder searched ("." for `**\/*.js`), todowrite's counts the todos still open ("0 todos" for a
 * list of three, all done).
 */
export function toolSubject(tool: string, state: ToolState): string | undefined {
  const own = ownSubject(tool, state.input)
  if (own) return shorten(own)
  if ((state.status === 'running' || state.status === 'completed') && state.title) return state.title
  // A question call is about what it asks: the first question's short header (or the question itself).
  const questions = state.input.questions
  if (Array.isArray(questions) && questions.length > 0) {
    const first = questions[0] as { header?: unknown; question?: unknown }
    const label = typeof first.header === 'string' && first.header.trim() ? first.header : first.question
    if (typeof label === 'string' && label.trim()) return questions.length > 1 ? `${label} (+${questions.length - 1} more)` : label
  }
  for (const key of SUBJECT_KEYS) {
    const value = state.input[key]
    if (typeof value === 'string' && value.trim()) return shorten(value)
  }
  return undefined
}

function shorten(value: string): string {
  const line = value.trim().split('\n')[0]!
  return line.length > SUBJECT_MAX ? `${line.slice(0, SUBJECT_MAX - 1)}…` : line
}

/** The subject of the tools whose reported title is not it. */
function ownSubject(tool: string, input: Record<string, unknown>): string | undefined {
  if (tool === 'glob' || tool === 'grep') {
    const pattern = typeof input.pattern === 'string' ? input.pattern.trim() : ''
    if (!pattern) return undefined
    const path = typeof input.path === 'string' ? input.path.trim() : ''
    const include = tool === 'grep' && typeof input.include === 'string' && input.include.trim() ? ` (${input.include.trim()})` : ''
    return `${pattern}${include}${path && path !== '.' && path !== '/workspace' ? ` in ${path}` : ''}`
  }
  if (tool === 'todowrite' && Array.isArray(input.todos)) {
    const todos = input.todos as { status?: unknown }[]
    if (todos.length === 0) return 'No todos'
    const done = todos.filter((todo) => todo.status === 'completed' || todo.status === 'cancelled').length
    const count = `${formatNumber(todos.length)} todo${todos.length === 1 ? '' : 's'}`
    return done === todos.length ? `${count}, all done` : done === 0 ? count : `${count}, ${formatNumber(done)} done`
  }
  return undefined
}

export function toolDuration(state: ToolState): number | undefined {
  if (state.status === 'completed' || state.status === 'error') return Math.max(0, state.time.end - state.time.start)
  return undefined
}

/**
 * The output worth showing: the result when done, partial output kept by an interrupted or failed call, and
 * streaming output (opencode's bash puts it in `metadata.output`) while running.
 */
export function toolOutput(state: ToolState): { label: string; text: string } | undefined {
  switch (state.status) {
    case 'completed':
      // Without the notes the bash tool adds for the model: the card says how the command ended itself.
      return { label: 'Output', text: typeof state.metadata.exit === 'number' ? commandOutput(state.output) : state.output }
    case 'error':
      return typeof state.metadata?.output === 'string' && state.metadata.output
        ? { label: 'Partial output', text: state.metadata.output }
        : undefined
    case 'running': {
      const output = state.metadata?.output
      return typeof output === 'string' && output ? { label: 'Output so far', text: output } : undefined
    }
    case 'pending':
      return undefined
  }
}

/**
 * Stopped by the user or a closed tab: an error cleanup wrote (flagged `interrupted`, as opencode flags it), or a
 * command that answered its Stop with its output so far, whose output says the user stopped it, as opencode's does.
 * Commands stored before that left the flag on the completed call too (not opencode's shape); those still count.
 */
export function isInterrupted(state: ToolState): boolean {
  if (state.status === 'error') return state.metadata?.interrupted === true
  if (state.status !== 'completed') return false
  return state.metadata.interrupted === true || (typeof state.metadata.exit === 'number' && stoppedByUser(state.output))
}

export function lineCount(text: string): number {
  return text === '' ? 0 : text.split('\n').length
}

export function describeLines(count: number): string {
  return `${formatNumber(count)} ${count === 1 ? 'line' : 'lines'}`
}

/**
 * The exit code of a command that finished but failed: its call completed (the model gets the output and the
 * code, as opencode does), yet to a person it failed, and the card must say so.
 */
export function failedExit(state: ToolState): number | undefined {
  // A command the user stopped exits 130 by design: the card says "interrupted", not that it failed.
  if (state.status !== 'completed' || isInterrupted(state)) return undefined
  const exit = state.metadata.exit
  return typeof exit === 'number' && exit !== 0 ? exit : undefined
}

/** Up to this many lines a command's whole output is its ending; longer, the card shows the last `ENDING_LINES`. */
export const SHORT_OUTPUT_LINES = 12
export const ENDING_LINES = 10
/** A last line can be a whole minified file: the ending keeps at most this many characters, from the end. */
export const ENDING_CHARS = 2_000

/**
 * The end of what a command printed, which the card shows open: a test run's verdict (`OK`, `FAILED (failures=3)`,
 * `# fail 0`) comes last, so the head alone hides it. A short output is shown whole; `earlier` counts the lines left
 * above the shown ones (all of them are under the card's Output).
 */
export function commandEnding(text: string): { text: string; earlier: number } | undefined {
  const lines = text.replace(/\n+$/, '').split('\n')
  if (lines.length === 1 && lines[0] === '') return undefined
  const shown = lines.length <= SHORT_OUTPUT_LINES ? lines : lines.slice(-ENDING_LINES)
  const ending = shown.join('\n')
  return { text: ending.length > ENDING_CHARS ? `…${ending.slice(-ENDING_CHARS)}` : ending, earlier: lines.length - shown.length }
}

/** What a command printed, without the `<shell_metadata>` notes the bash tool adds for the model (older parts kept them in the metadata too). */
export function commandOutput(value: unknown): string {
  const text = typeof value === 'string' ? value : ''
  return text.replace(/(\n\n)?<shell_metadata>\n[\s\S]*?\n<\/shell_metadata>$/, '')
}

const RUNTIMES: Record<string, { label: string; description: string }> = {
  offline: { label: 'ran offline', description: 'Ran in the offline workspace, in this tab' },
  webcontainer: { label: 'ran in WebContainer', description: 'Ran in WebContainer (Node.js and npm)' },
}

/** Which runtime served a command, for the card's badge (older parts did not record it). */
export function commandRuntime(state: ToolState): { label: string; description: string } | undefined {
  if (state.status !== 'completed') return undefined
  const runtime = state.metadata.runtime
  return typeof runtime === 'string' ? RUNTIMES[runtime] : undefined
}

/** What a command's runtime said to the user while it ran (Python's first download), kept out of its output. */
export function commandNotice(state: ToolState): string | undefined {
  if (state.status !== 'completed' && state.status !== 'running') return undefined
  const notice = state.metadata?.notice
  return typeof notice === 'string' && notice !== '' ? notice : undefined
}

/** A runtime's first download while a command waits for it (bash's `metadata.download`): what, and how far. */
export function commandDownload(state: ToolState): { what: string; loaded: number; total: number } | undefined {
  if (state.status !== 'running') return undefined
  const download = state.metadata?.download
  if (typeof download !== 'object' || download === null) return undefined
  const { what, loaded, total } = download as Record<string, unknown>
  if (typeof what !== 'string' || typeof loaded !== 'number' || typeof total !== 'number' || !(total > 0) || !(loaded >= 0)) return undefined
  return { what, loaded: Math.min(loaded, total), total }
}

/** A file change a tool reported: its unified patch and line counts. */
export interface ToolChange {
  file: string | undefined
  patch: string
  additions: number
  deletions: number
}

/**
 * The diff an edit, write or patch call computed, from its metadata (`filediff` as opencode stores it, else the
 * bare `diff` string, counted from its lines). Undefined for calls that changed no file.
 */
export function toolChange(state: ToolState): ToolChange | undefined {
  if (state.status !== 'completed') return undefined
  const { filediff, diff } = state.metadata
  const filePath = typeof state.input.filePath === 'string' ? state.input.filePath : undefined
  if (isRecord(filediff) && typeof filediff.patch === 'string' && typeof filediff.additions === 'number' && typeof filediff.deletions === 'number') {
    const file = typeof filediff.file === 'string' ? filediff.file : filePath
    return { file, patch: filediff.patch, additions: filediff.additions, deletions: filediff.deletions }
  }
  if (typeof diff !== 'string' || !diff) return undefined
  let additions = 0
  let deletions = 0
  for (const line of diff.split('\n')) {
    if (line.startsWith('+') && !line.startsWith('+++')) additions++
    else if (line.startsWith('-') && !line.startsWith('---')) deletions++
  }
  return { file: filePath, patch: diff, additions, deletions }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}

/** "+3 −1" in words, for screen readers. */
export function describeChange(change: { additions: number; deletions: number }): string {
  const plural = (count: number, word: string) => `${formatNumber(count)} ${count === 1 ? word : `${word}s`}`
  return `${plural(change.additions, 'addition')}, ${plural(change.deletions, 'deletion')}`
}

/** A file as the read tool returned it: its numbered lines (the numbers the tool gave) and its closing note. */
export interface ReadContent {
  lines: Array<{ number: number; text: string }>
  note: string | undefined
}

/**
 * The lines in a read call's `<content>` block (`12: text`), or undefined when the output is not one (a
 * directory listing, an image, an older format): the card then shows the output as it came.
 */
export function readContent(output: string): ReadContent | undefined {
  const match = /<content>\n([\s\S]*)\n<\/content>\s*$/.exec(output)
  if (!match) return undefined
  const body = match[1]!.split('\n')
  // The footer sits after an empty line: "(End of file - total 3 lines)" or where the rest is.
  let note: string | undefined
  if (body.length >= 2 && body.at(-2) === '' && /^\(.*\)$/.test(body.at(-1)!)) {
    note = body.pop()!.slice(1, -1)
    body.pop()
  }
  if (body.length === 1 && body[0] === '') body.pop()
  const lines: ReadContent['lines'] = []
  for (const line of body) {
    const numbered = /^(\d+): ?(.*)$/.exec(line)
    if (!numbered) return undefined
    lines.push({ number: Number(numbered[1]), text: numbered[2]! })
  }
  return { lines, note }
}

/** The command a bash call ran and how it ended: undefined for other tools. */
export function commandOf(tool: string, state: ToolState): { command: string; exit: number | undefined } | undefined {
  if (tool !== 'bash' || typeof state.input.command !== 'string') return undefined
  const exit = state.status === 'completed' && typeof state.metadata.exit === 'number' ? state.metadata.exit : undefined
  return { command: state.input.command, exit }
}

/** A `question` call's questions and, once answered, each one's answers (empty while waiting or when skipped). */
export function questionAnswers(tool: string, state: ToolState): { question: string; answers: string[] }[] | undefined {
  if (tool !== 'question') return undefined
  const questions = askedQuestions({ permission: QUESTION_PERMISSION, metadata: { questions: state.input.questions } })
  if (!questions) return undefined
  const answers = state.status === 'completed' && Array.isArray(state.metadata.answers) ? (state.metadata.answers as unknown[]) : []
  return questions.map((question, index) => {
    const answer = answers[index]
    return { question: question.question, answers: Array.isArray(answer) ? answer.filter((entry): entry is string => typeof entry === 'string') : [] }
  })
}

/**
 * A failed call's error as the card shows it. A denial's text is written for the model, with every rule of that
 * permission as JSON so it can see what it may still do; a person needs only the rule that decided, and where to
 * change it.
 */
export function toolErrorText(error: string): string {
  if (!error.startsWith(DENIED_TEXT)) return error
  const end = error.indexOf(DENIED_RULES_TEXT)
  const decided = error.slice(DENIED_TEXT.length, end < 0 ? undefined : end)
  return `Denied by a permission rule: ${decided}. Rules are in Settings, under the agent.`
}
