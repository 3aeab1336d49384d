import { z } from 'zod'
import { commandPrefix } from '../core/permission/arity'
import { USER_ABORTED_NOTE, withShellNotes } from '../core/shell-notes'
import { webContainerProgramOf } from '../workspace/on-demand'
import { dirname, isInside, resolvePath } from '../workspace/path'
import { loadShellSyntax, type ShellSyntax } from '../workspace/shell/syntax'
import type { RuntimeDownload, Workspace } from '../workspace/workspace'
import { defineTool, type ToolContext } from './tool'

/** opencode's default (`OPENCODE_EXPERIMENTAL_BASH_DEFAULT_TIMEOUT_MS` unset). */
export const BASH_DEFAULT_TIMEOUT_MS = 2 * 60 * 1000
/** The ceiling opencode's bash tool long had: a longer timeout asked for is cut to this. */
export const BASH_MAX_TIMEOUT_MS = 10 * 60 * 1000
/** How much of the running output the tool part carries while the command runs (opencode's live preview). */
export const BASH_PREVIEW_CHARS = 30_000
/** The running part is updated at most this often, however fast the output comes. */
export const BASH_PROGRESS_INTERVAL_MS = 100

/** Commands whose path arguments are checked against the project directory (opencode's list). */
const PATH_COMMANDS = new Set(['cd', 'pushd', 'rm', 'cp', 'mv', 'mkdir', 'touch', 'chmod', 'chown', 'cat'])
/** Commands that only move around: they need no `bash` permission of their own. */
const DIRECTORY_COMMANDS = new Set(['cd', 'pushd', 'popd'])

export const bashTool = defineTool({
  id: 'bash',
  truncate: 'tail',
  description: [
    'Executes a given shell command in the project with an optional timeout.',
    '',
    'All commands run in the project directory by default. Use the `workdir` parameter if you need to run a command in a',
    'different directory. AVOID using `cd <directory> && <command>` patterns - use `workdir` instead.',
    '',
    'IMPORTANT: This tool is for terminal operations like git, npm, node, etc. DO NOT use it for file operations',
    '(reading, writing, editing, searching, finding files) - use the specialized tools for this instead.',
    '',
    'Usage notes:',
    '  - The command argument is required.',
    `  - You can specify an optional timeout in milliseconds (up to ${BASH_MAX_TIMEOUT_MS}ms / 10 minutes). If not specified,`,
    `    commands will time out after ${BASH_DEFAULT_TIMEOUT_MS}ms (2 minutes).`,
    '  - Write a clear, concise description of what this command does in 5-10 words.',
    '  - Always quote file paths that contain spaces with double quotes.',
    '  - The output of a long command is cut; the full output is kept where you can read or grep it. Do not use `head`',
    '    or `tail` to shorten output yourself.',
    '  - Avoid `find`, `grep`, `cat`, `head`, `tail`, `sed`, `awk` or `echo` when a dedicated tool does the job: glob to',
    '    find files, grep to search contents, read to read files, edit and write to change them.',
    '  - When issuing multiple commands: independent commands can be separate bash calls in one message; dependent',
    "    ones go in a single call joined with '&&'. Use ';' only when later commands should run even if earlier ones",
    '    fail. DO NOT use newlines to separate commands (newlines are ok in quoted strings).',
    '  - Interactive commands (waiting for input) are not supported; pass flags that make them non-interactive.',
  ].join('\n'),
  parameters: z.object({
    command: z.string().min(1).describe('The command to execute'),
    timeout: z.number().int().positive().optional().describe('Optional timeout in milliseconds'),
    workdir: z
      .string()
      .optional()
      .describe('The working directory to run the command in. Defaults to the project directory. Use this instead of `cd` commands.'),
    description: z
      .string()
      .describe(
        'Clear, concise description of what this command does in 5-10 words. Examples:\nInput: ls\nOutput: Lists files in ' +
          'current directory\n\nInput: git status\nOutput: Shows working tree status\n\nInput: npm install\nOutput: ' +
          "Installs package dependencies\n\nInput: mkdir foo\nOutput: Creates directory 'foo'",
      ),
  }),
  async execute(input, context) {
    const workspace = context.workspace
    const cwd = resolvePath(workspace.root, input.workdir ?? '.')
    const timeout = Math.min(input.timeout ?? BASH_DEFAULT_TIMEOUT_MS, BASH_MAX_TIMEOUT_MS)
    await askPermissions(context, input.command, cwd, input.description)

    const info = await workspace.stat(cwd)
    if (!info) throw new Error(`The working directory ${cwd} does not exist`)
    if (info.type !== 'directory') throw new Error(`The working directory ${cwd} is a file`)

    const preview = livePreview(context, input.description)
    const result = await workspace
      .exec(input.command, { cwd, timeout, signal: context.abort, onOutput: preview.append, onNotice: preview.notice, onDownload: preview.download })
      .finally(() => preview.stop())

    const notes: string[] = []
    if (result.timedOut) {
      notes.push(
        `bash tool terminated command after exceeding timeout ${timeout} ms. If this command is expected to take longer ` +
          'and is not waiting for interactive input, retry with a larger timeout value in milliseconds.',
      )
    } else if (result.aborted) notes.push(USER_ABORTED_NOTE)
    else if (result.exitCode !== 0) notes.push(`Command exited with code ${result.exitCode}`)
    const output = withShellNotes(result.output === '' ? '(no output)' : result.output, notes)

    // The metadata is what people see (the card, the terminal): the command's own output, without the notes only
    // the model needs; the card says how it ended from `exit`.
    const metadata: Record<string, unknown> = { output: tail(result.output), exit: result.exitCode, description: input.description }
    // The runtime's own notice (Python's first download) stays on the card: it is the user's, not the model's.
    if (preview.noticeText()) metadata.notice = preview.noticeText()
    if (result.runtime) metadata.runtime = result.runtime
    if (result.timedOut) metadata.timedOut = true
    // A stopped command completes with its output so far, as in opencode, and with opencode's metadata: that the
    // user stopped it is in the output's note (`stoppedByUser`), not in a flag of ours that exports would carry.
    context.progress({ metadata })
    return { title: input.description, output, metadata }
  },
})

function tail(text: string): string {
  return text.length > BASH_PREVIEW_CHARS ? text.slice(-BASH_PREVIEW_CHARS) : text
}

/**
 * Streams the output into the running tool part as it comes: the last `BASH_PREVIEW_CHARS` characters, at most
 * every `BASH_PROGRESS_INTERVAL_MS` (the first chunk at once, later ones batched).
 */
function livePreview(context: ToolContext, description: string) {
  let text = ''
  let notice = ''
  // The runtime's first download while it comes: the card's bar. Not kept in the ended part (the notice says "done").
  let download: RuntimeDownload | undefined
  let last = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  let stopped = false
  const emit = () => {
    timer = undefined
    last = Date.now()
    context.progress({
      metadata: { output: text, description, ...(notice ? { notice: notice.trim() } : {}), ...(download && download.loaded < download.total ? { download } : {}) },
    })
  }
  const schedule = () => {
    if (timer !== undefined) return
    const wait = last + BASH_PROGRESS_INTERVAL_MS - Date.now()
    if (wait <= 0) emit()
    else timer = setTimeout(emit, wait)
  }
  context.progress({ metadata: { output: '', description } })
  return {
    append(chunk: string) {
      // Output that straggles in after the command ended would overwrite the final result's metadata.
      if (stopped) return
      text = tail(text + chunk)
      schedule()
    },
    /** A runtime's notice: shown on the card as it grows, never added to the output. */
    notice(piece: string) {
      if (stopped) return
      notice += piece
      schedule()
    },
    /** A runtime's first download as numbers: the card's bar while it comes. */
    download(progress: RuntimeDownload) {
      if (stopped) return
      download = progress
      schedule()
    },
    noticeText(): string {
      return notice.trim()
    },
    /** Sends what a pending update held, so an interrupted part keeps the output seen so far. */
    stop() {
      stopped = true
      if (timer === undefined) return
      clearTimeout(timer)
      emit()
    },
  }
}

/**
 * opencode's two asks before a command runs: `external_directory` for the directories outside the project it
 * touches (its workdir, and the path arguments of file commands), then `bash` with each command's source text as a
 * pattern and its arity prefix plus ` *` as what "always" remembers; and one of tabcode's own, `webcontainer`, before
 * a command would start WebContainer.
 */
async function askPermissions(context: ToolContext, command: string, cwd: string, description: string): Promise<void> {
  const root = context.workspace.root
  const commands = await parseShellCommands(command)
  const directories = new Set<string>()
  if (!isInside(root, cwd)) directories.add(cwd)
  for (const parsed of commands) {
    const paths = PATH_COMMANDS.has(parsed.words[0] ?? '') ? pathArguments(parsed.words) : []
    for (const path of [...paths, ...parsed.writes]) {
      const directory = await outsideDirectory(context.workspace, cwd, path)
      if (directory) directories.add(directory)
    }
  }
  if (directories.size > 0) {
    const globs = [...directories].map((directory) => (directory === '/' ? '/*' : `${directory}/*`))
    await context.ask({ permission: 'external_directory', patterns: globs, always: globs, metadata: { command, directories: [...directories] } })
  }

  const patterns = new Set<string>()
  const always = new Set<string>()
  for (const parsed of commands) {
    if (parsed.tokens.length === 0 || DIRECTORY_COMMANDS.has(parsed.words[0]!)) continue
    patterns.add(parsed.text)
    always.add(commandPrefix(parsed.tokens).join(' ') + ' *')
  }
  if (patterns.size > 0) await context.ask({ permission: 'bash', patterns: [...patterns], always: [...always], metadata: { command, description } })

  // Not opencode's: a command that needs Node.js or npm starts WebContainer, whose commands (this one and every later
  // one of the project) reach the network freely. Starting it for the agent is a way out of the tab, so it asks.
  const program =
    context.workspace.backend === 'webcontainer'
      ? undefined
      : await webContainerProgramOf(command, commands.map((parsed) => parsed.words[0] ?? ''), cwd, context.workspace)
  if (program) await context.ask({ permission: 'webcontainer', patterns: [program], always: ['*'], metadata: { command, program } })
}

function pathArguments(words: string[]): string[] {
  const name = words[0]
  return words.slice(1).filter((word) => word !== '' && !word.startsWith('-') && !(name === 'chmod' && word.startsWith('+')))
}

/**
 * The directory outside the project that `path` (as written in the command) lies in, if it does. A path the
 * shell would expand from a variable or a command can't be known here and is left out, as opencode's `realpath`
 * leaves it out; `~` is named as it is, since the home directory is the shell's.
 */
async function outsideDirectory(workspace: Workspace, cwd: string, path: string): Promise<string | undefined> {
  if (path.includes('$') || path.includes('`')) return undefined
  if (path === '~' || path.startsWith('~/')) return '~'
  const resolved = resolvePath(cwd, path)
  if (isInside(workspace.root, resolved)) return undefined
  const info = await workspace.stat(resolved).catch(() => undefined)
  return info?.type === 'directory' ? resolved : dirname(resolved)
}

/** One simple command of a command line, as tree-sitter-bash's `command` node gives it. */
export interface ShellCommand {
  /** Its source text, assignments included and redirections left out: the pattern the rules are matched against. */
  text: string
  /** Its words as written (quotes kept), without leading `NAME=value` assignments: what the arity table reads. */
  tokens: string[]
  /** The same words as the shell passes them (quotes removed). */
  words: string[]
  /** Targets of its output redirections (`>`, `>>`, `&>`), which it writes. */
  writes: string[]
}

const WRITE_REDIRECTIONS = new Set(['>', '>>', '>|', '&>', '&>>', '>&'])

type Shell = ShellSyntax
type Word = import('just-bash').WordNode
type Simple = import('just-bash').SimpleCommandNode

/**
 * Splits a command line into its simple commands with the shell's own parser (just-bash, loaded on first use), so
 * a permission is asked for exactly the commands the shell will run: those joined by `;`, `&&`, `||`, `|`, `&` or
 * newlines, inside groups, substitutions and the bodies of compound commands, each after the commands its own
 * substitutions run. A line the shell cannot parse is one command, asked for as written.
 */
export async function parseShellCommands(source: string): Promise<ShellCommand[]> {
  const shell = await loadShellSyntax()
  let script
  try {
    script = shell.parse(source)
  } catch {
    const words = source.trim().split(/\s+/)
    return [{ text: source.trim(), tokens: words, words, writes: [] }]
  }
  const commands: ShellCommand[] = []
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit)
    if (!node || typeof node !== 'object') return
    for (const value of Object.values(node)) visit(value)
    if ((node as { type?: string }).type === 'SimpleCommand') commands.push(describe(shell, node as Simple))
  }
  visit(script)
  // `[ … ]` is a test, not a command, in tree-sitter-bash as in opencode's reading of it.
  return commands.filter((command) => (command.tokens.length > 0 && command.words[0] !== '[') || command.writes.length > 0)
}

function describe(shell: Shell, command: Simple): ShellCommand {
  const words = command.name ? [command.name, ...command.args] : []
  const writes: string[] = []
  for (const redirection of command.redirections) {
    if (!WRITE_REDIRECTIONS.has(redirection.operator) || redirection.target.type !== 'Word') continue
    const target = unquote(shell, redirection.target)
    // `2>&1` and `>&2` name descriptors, not files.
    if (target !== '' && target !== '/dev/null' && !/^\d+$|^-$/.test(target)) writes.push(target)
  }
  return {
    text: words.length > 0 ? serializeCommand(shell, { ...command, redirections: [] }) : '',
    tokens: words.map((word) => serializeCommand(shell, { type: 'SimpleCommand', name: word, args: [], assignments: [], redirections: [] })),
    words: words.map((word) => unquote(shell, word)),
    writes,
  }
}

function serializeCommand(shell: Shell, command: Simple): string {
  const pipeline = { type: 'Pipeline' as const, commands: [command], negated: false, timed: false, timePosix: false }
  return shell.serialize({ type: 'Script', statements: [{ type: 'Statement', pipelines: [pipeline], operators: [], background: false }] }).trim()
}

/** A word's value with quotes and escapes removed; expansions stay as written (they are only known when run). */
function unquote(shell: Shell, word: Word): string {
  const text = (parts: Word['parts']): string =>
    parts
      .map((part) => {
        if (part.type === 'Literal' || part.type === 'SingleQuoted' || part.type === 'Escaped') return part.value
        if (part.type === 'DoubleQuoted') return text(part.parts)
        return serializeCommand(shell, { type: 'SimpleCommand', name: { type: 'Word', parts: [part] }, args: [], assignments: [], redirections: [] })
      })
      .join('')
  return text(word.parts)
}
