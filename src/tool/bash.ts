import { z } from 'zod'
import { commandPrefix } from '../permission/arity'
import { dirname, isInside, resolvePath } from '../workspace/path'
import type { Workspace } from '../workspace/workspace'
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
      .exec(input.command, { cwd, timeout, signal: context.abort, onOutput: preview.append })
      .finally(() => preview.stop())

    const notes: string[] = []
    if (result.timedOut) {
      notes.push(
        `bash tool terminated command after exceeding timeout ${timeout} ms. If this command is expected to take longer ` +
          'and is not waiting for interactive input, retry with a larger timeout value in milliseconds.',
      )
    } else if (result.aborted) notes.push('User aborted the command')
    else if (result.exitCode !== 0) notes.push(`Command exited with code ${result.exitCode}`)
    let output = result.output === '' ? '(no output)' : result.output
    if (notes.length > 0) output += `\n\n<shell_metadata>\n${notes.join('\n')}\n</shell_metadata>`

    const metadata: Record<string, unknown> = { output: tail(output), exit: result.exitCode, description: input.description }
    if (result.timedOut) metadata.timedOut = true
    if (result.aborted) metadata.interrupted = true
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
  let last = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  let stopped = false
  const emit = () => {
    timer = undefined
    last = Date.now()
    context.progress({ metadata: { output: text, description } })
  }
  context.progress({ metadata: { output: '', description } })
  return {
    append(chunk: string) {
      // Output that straggles in after the command ended would overwrite the final result's metadata.
      if (stopped) return
      text = tail(text + chunk)
      if (timer !== undefined) return
      const wait = last + BASH_PROGRESS_INTERVAL_MS - Date.now()
      if (wait <= 0) emit()
      else timer = setTimeout(emit, wait)
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
 * pattern and its arity prefix plus ` *` as what "always" remembers.
 */
async function askPermissions(context: ToolContext, command: string, cwd: string, description: string): Promise<void> {
  const root = context.workspace.root
  const commands = parseShellCommands(command)
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
  if (patterns.size === 0) return
  await context.ask({ permission: 'bash', patterns: [...patterns], always: [...always], metadata: { command, description } })
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

/** Reserved words that open or join a compound command: the simple command starts after them. */
const LEADING_KEYWORDS = new Set(['if', 'then', 'elif', 'else', 'do', 'while', 'until', '!', '{', 'fi', 'done', 'esac', '}'])
/** Heads of compound commands that are not commands themselves (`for x in …`, `case $x in …`, tests). */
const NOT_COMMANDS = new Set(['for', 'select', 'case', 'in', '[', '[[', 'function'])
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/
const REDIRECTION = /(\d*)(&>>|&>|>>|>\||>&|<<<|<<-|<<|<&|<>|>|<)/y
const WRITE_REDIRECTIONS = new Set(['>', '>>', '>|', '&>', '&>>', '>&'])

/**
 * Splits a command line into its simple commands, the way opencode reads it with tree-sitter-bash (a browser port
 * without the grammar): commands joined by `;`, `&&`, `||`, `|`, `&` or newlines, inside `( … )` groups, `$( … )`
 * and backtick substitutions, and the bodies of `if`/`while`/`for` constructs. Quotes, escapes, comments,
 * redirections and here-documents are understood well enough to keep words whole and skip what is not a command.
 */
export function parseShellCommands(source: string): ShellCommand[] {
  const commands: ShellCommand[] = []
  let index = 0
  const heredocs: { delimiter: string; stripTabs: boolean }[] = []
  /** The redirection operator starting at `at` (after its file descriptor digits, if any) and where it ends. */
  const redirectionAt = (at: number): { kind: string; end: number } | undefined => {
    REDIRECTION.lastIndex = at
    const match = REDIRECTION.exec(source)
    return match ? { kind: match[2]!, end: at + match[0].length } : undefined
  }

  const skipHeredocBodies = () => {
    // `index` is just past a newline: each pending here-document's body runs to its delimiter line.
    for (const heredoc of heredocs.splice(0)) {
      while (index < source.length) {
        const end = source.indexOf('\n', index)
        const line = source.slice(index, end === -1 ? source.length : end)
        index = end === -1 ? source.length : end + 1
        if ((heredoc.stripTabs ? line.replace(/^\t+/, '') : line) === heredoc.delimiter) break
      }
    }
  }

  /** Reads one word starting at `index`; returns its raw text and its value with quotes and escapes removed. */
  const readWord = (stop: string | undefined): { raw: string; value: string } => {
    const start = index
    let value = ''
    while (index < source.length) {
      const char = source[index]!
      if (char === '(' && value.endsWith('=') && ASSIGNMENT.test(value)) {
        // An array assignment, `names=(a b)`: its elements are words, not a command.
        const close = source.indexOf(')', index)
        const end = close === -1 ? source.length : close + 1
        value += source.slice(index, end)
        index = end
        continue
      }
      if (/\s/.test(char) || ';&|<>()'.includes(char) || (stop === '`' && char === '`')) break
      // A line continuation separates words, like a space.
      if (char === '\\' && source[index + 1] === '\n') break
      if (char === '\\') {
        value += source[index + 1] ?? ''
        index += 2
      } else if (char === "'") {
        const end = source.indexOf("'", index + 1)
        const close = end === -1 ? source.length : end
        value += source.slice(index + 1, close)
        index = close + 1
      } else if (char === '"') {
        index++
        while (index < source.length && source[index] !== '"') {
          if (source[index] === '\\' && index + 1 < source.length) {
            value += source[index + 1]
            index += 2
          } else if (source.startsWith('$(', index) || source[index] === '`') value += substitution()
          else value += source[index++]
        }
        index++
      } else if (char === '$' && (source[index + 1] === '(' || source[index + 1] === '{')) value += substitution()
      else if (char === '`') value += substitution()
      else {
        value += char
        index++
      }
    }
    return { raw: source.slice(start, Math.min(index, source.length)), value }
  }

  /** `$(…)`, `` `…` ``, `$((…))` or `${…}` at `index`: the commands inside are collected; returns its raw text. */
  const substitution = (): string => {
    const start = index
    if (source.startsWith('$((', index) || source.startsWith('${', index)) {
      // Arithmetic and parameter expansions hold no commands worth asking about: skip to the matching close.
      const open = source[index + 1]!
      const close = open === '(' ? ')' : '}'
      let depth = 0
      for (; index < source.length; index++) {
        if (source[index] === open) depth++
        else if (source[index] === close && --depth === 0) break
      }
      index++
      return source.slice(start, index)
    }
    const backtick = source[index] === '`'
    index += backtick ? 1 : 2
    list(backtick ? '`' : ')')
    return source.slice(start, index)
  }

  /** A redirection at `index` (`>`, `2>>`, `&>`, `<&3`, `<<EOF` …): skips its operator and target. */
  const redirection = (command: Draft, kind: string) => {
    if ((kind === '>&' || kind === '<&') && /[\d-]/.test(source[index] ?? '')) {
      while (/[\d-]/.test(source[index] ?? '')) index++
      return
    }
    while (source[index] === ' ' || source[index] === '\t') index++
    const target = readWord(undefined)
    if (kind === '<<' || kind === '<<-') heredocs.push({ delimiter: target.value, stripTabs: kind === '<<-' })
    else if (WRITE_REDIRECTIONS.has(kind) && target.value !== '' && target.value !== '/dev/null') command.writes.push(target.value)
  }

  interface Draft {
    start: number
    end: number
    tokens: string[]
    words: string[]
    writes: string[]
    skip: boolean
  }
  const draft = (): Draft => ({ start: -1, end: -1, tokens: [], words: [], writes: [], skip: false })

  const finish = (command: Draft) => {
    if (!command.skip && command.tokens.length > 0) {
      commands.push({ text: source.slice(command.start, command.end), tokens: command.tokens, words: command.words, writes: command.writes })
    } else if (command.writes.length > 0) {
      // A bare redirection (`> file`) still writes its target.
      commands.push({ text: '', tokens: [], words: [], writes: command.writes })
    }
  }

  /** Reads commands until `stop` (the end of a substitution) or the end of the line. */
  const list = (stop?: string) => {
    let command = draft()
    let depth = 0
    const next = () => {
      finish(command)
      command = draft()
    }
    while (index < source.length) {
      const char = source[index]!
      const redirect = redirectionAt(index)
      if (stop === '`' && char === '`') {
        index++
        break
      }
      if (stop === ')' && char === ')' && depth === 0) {
        index++
        break
      }
      if (char === ' ' || char === '\t' || char === '\r') {
        index++
      } else if (char === '\\' && source[index + 1] === '\n') {
        index += 2
      } else if (char === '\n') {
        next()
        index++
        skipHeredocBodies()
      } else if (char === '#' && (index === 0 || /[\s;&|()]/.test(source[index - 1]!))) {
        while (index < source.length && source[index] !== '\n') index++
      } else if (redirect) {
        index = redirect.end
        redirection(command, redirect.kind)
      } else if (';&|'.includes(char)) {
        next()
        index++
      } else if (char === '(' || char === ')') {
        next()
        depth += char === '(' ? 1 : -1
        index++
      } else {
        const start = index
        const word = readWord(stop)
        if (command.start === -1) {
          if (LEADING_KEYWORDS.has(word.raw)) continue
          if (NOT_COMMANDS.has(word.raw)) command.skip = true
        }
        if (command.start === -1) command.start = start
        // Leading `NAME=value` words are part of the command's text but not of its words.
        if (command.tokens.length > 0 || !ASSIGNMENT.test(word.raw)) {
          command.tokens.push(word.raw)
          command.words.push(word.value)
        }
        command.end = index
      }
    }
    finish(command)
  }

  list()
  return commands
}
