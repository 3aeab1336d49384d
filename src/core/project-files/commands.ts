import type { ProjectCommandSummary } from '../dto/commands'
import { parseFrontMatter } from './front-matter'

/** Where opencode keeps a project's commands (both spellings are read). */
export const COMMAND_FOLDERS = ['.opencode/command', '.opencode/commands'] as const

export interface ProjectCommand {
  name: string
  description?: string
  agent?: string
  /** `provider/model`, as opencode writes it. */
  model?: string
  template: string
  path: string
}

export type ParsedCommand = { type: 'command'; command: ProjectCommand } | { type: 'problem'; summary: ProjectCommandSummary }

/** The command's name from its path inside a command folder: `git/commit.md` is `git/commit`, as opencode names it. */
export function commandName(relativePath: string): string {
  return relativePath.replace(/\.md$/i, '')
}

const optionalText = (data: Record<string, unknown>, key: string): string | undefined => {
  const value = data[key]
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string') throw new Error(`\`${key}\` must be text`)
  return value.trim() || undefined
}

/** One command file, or what is wrong with it (the file is listed with its problem; nothing else is affected). */
export function parseCommand(name: string, path: string, text: string): ParsedCommand {
  try {
    const { data, body } = parseFrontMatter(text)
    const model = optionalText(data, 'model')
    if (model && !/^[^/\s]+\/\S+$/.test(model)) throw new Error(`\`model\` must be provider/model, not "${model}"`)
    if (!body) throw new Error('it has no template after its front matter')
    const description = optionalText(data, 'description')
    const agent = optionalText(data, 'agent')
    return {
      type: 'command',
      command: { name, path, template: body, ...(description ? { description } : {}), ...(agent ? { agent } : {}), ...(model ? { model } : {}) },
    }
  } catch (error) {
    return { type: 'problem', summary: { name, path, problem: `${path}: ${error instanceof Error ? error.message : String(error)}` } }
  }
}

export function commandSummary(command: ProjectCommand): ProjectCommandSummary {
  const { template: _template, ...summary } = command
  return summary
}

/** Splits arguments as a shell would for the simple cases: spaces separate, quotes keep a phrase together. */
export function splitArguments(text: string): string[] {
  return [...text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((match) => match[1] ?? match[2] ?? match[3]!)
}

/**
 * Fills a template as opencode does: `$ARGUMENTS` is everything after the name, `$1`, `$2`, … the words, and the
 * highest placeholder takes the rest of them; a template without placeholders gets the arguments appended.
 */
export function expandTemplate(template: string, argumentsText: string): string {
  const words = splitArguments(argumentsText)
  const numbers = [...template.matchAll(/\$(\d+)/g)].map((match) => Number(match[1]))
  const last = numbers.length ? Math.max(...numbers) : 0
  let text = template.replace(/\$(\d+)/g, (_, digits: string) => {
    const index = Number(digits) - 1
    if (index < 0) return ''
    return Number(digits) === last ? words.slice(index).join(' ') : (words[index] ?? '')
  })
  const usesAll = text.includes('$ARGUMENTS')
  text = text.replaceAll('$ARGUMENTS', argumentsText)
  if (!usesAll && numbers.length === 0 && argumentsText.trim()) text = `${text}\n\n${argumentsText.trim()}`
  return text.trim()
}

/** `/name arguments` at the start of a prompt, or nothing. */
export function commandInvocation(text: string): { name: string; arguments: string } | undefined {
  const match = /^\/([\w./-]+)(?:\s+([\s\S]*))?$/.exec(text.trim())
  if (!match) return undefined
  return { name: match[1]!, arguments: (match[2] ?? '').trim() }
}
