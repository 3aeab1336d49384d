import { z } from 'zod'
import { resolvePath } from '../workspace/path'
import { assertExternalDirectory } from './external-directory'
import { defineTool } from './tool'

/** The most matching lines one call shows (opencode's limit). */
export const GREP_LIMIT = 100
/** Longer matching lines are cut to this many characters, followed by `...`. */
export const GREP_MAX_LINE_LENGTH = 2_000

export const grepTool = defineTool({
  id: 'grep',
  description: [
    '- Fast content search tool that works with any codebase size',
    '- Searches file contents using regular expressions (JavaScript syntax)',
    '- Supports full regex syntax (eg. "log.*Error", "function\\s+\\w+", etc.)',
    '- Filter files by pattern with the include parameter (eg. "*.js", "*.{ts,tsx}")',
    '- Returns file paths and line numbers with at least one match, newest files first',
    `- Shows at most ${GREP_LIMIT} matching lines`,
    '- Use this tool when you need to find files containing specific patterns',
    '- If you need to identify/count the number of matches within files, use the bash tool with `grep` directly.',
    '- When you are doing an open-ended search that may require multiple rounds of globbing and grepping, use the task tool instead',
  ].join('\n'),
  parameters: z.object({
    pattern: z.string().min(1).describe('The regex pattern to search for in file contents'),
    path: z.string().optional().describe('The directory to search in. Defaults to the project directory.'),
    include: z.string().optional().describe('File pattern to include in the search (e.g. "*.js", "*.{ts,tsx}")'),
  }),
  async execute(input, context) {
    try {
      new RegExp(input.pattern)
    } catch (error) {
      throw new Error(`The pattern is not a valid regular expression: ${error instanceof Error ? error.message : String(error)}`)
    }
    await context.ask({
      permission: 'grep',
      patterns: [input.pattern],
      always: ['*'],
      metadata: { pattern: input.pattern, path: input.path, include: input.include },
    })
    const workspace = context.workspace
    const search = resolvePath(workspace.root, input.path ?? '.')
    const info = await workspace.stat(search)
    if (!info) throw new Error(`Search path not found: ${input.path ?? search}`)
    await assertExternalDirectory(context, search, { kind: info.type === 'directory' ? 'directory' : 'file' })

    // One more than the limit tells whether anything was left out.
    const found = await workspace.grep(input.pattern, { path: search, include: input.include, limit: GREP_LIMIT + 1 })
    const empty = { title: input.pattern, output: 'No files found', metadata: { matches: 0, truncated: false } }
    if (found.length === 0) return empty

    const truncated = found.length > GREP_LIMIT
    const matches = found
      .map((match) => ({ ...match, path: resolvePath(search, match.path) }))
      .sort((a, b) => b.modified - a.modified || a.path.localeCompare(b.path) || a.line - b.line)
      .slice(0, GREP_LIMIT)

    const output = [`Found ${matches.length} matches${truncated ? ' (more matches available)' : ''}`]
    let current = ''
    for (const match of matches) {
      if (current !== match.path) {
        if (current !== '') output.push('')
        current = match.path
        output.push(`${match.path}:`)
      }
      output.push(`  Line ${match.line}: ${cutLine(match.text)}`)
    }
    if (truncated) output.push('', '(Results truncated. Consider using a more specific path or pattern.)')
    return { title: input.pattern, output: output.join('\n'), metadata: { matches: matches.length, truncated } }
  },
})

function cutLine(text: string): string {
  const line = text.replace(/\r?\n?$/, '')
  return line.length > GREP_MAX_LINE_LENGTH ? `${line.slice(0, GREP_MAX_LINE_LENGTH)}...` : line
}
