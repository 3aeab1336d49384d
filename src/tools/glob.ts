import { z } from 'zod'
import { relativePath, resolvePath } from '../workspace/path'
import { assertExternalDirectory } from './external-directory'
import { defineTool } from './tool'

/** The most files one call lists (opencode's limit). */
export const GLOB_LIMIT = 100

export const globTool = defineTool({
  id: 'glob',
  description: [
    '- Fast file pattern matching tool that works with any codebase size.',
    '- Supports glob patterns like "**/*.js" or "src/**/*.ts".',
    '- Returns matching file paths sorted by modification time, newest first.',
    `- Lists at most ${GLOB_LIMIT} files; when there are more, it says so and shows the most recently modified ones.`,
    '- Use this tool when you need to find files by name patterns.',
    '- When you are doing an open-ended search that may require multiple rounds of globbing and grepping, use the task tool instead.',
    '- If you get too many results, narrow the search with a more specific pattern or a subdirectory in the path parameter.',
  ].join('\n'),
  parameters: z.object({
    pattern: z.string().min(1).describe('The glob pattern to match files against'),
    path: z
      .string()
      .optional()
      .describe(
        'The directory to search in. If not specified, the project directory is used. IMPORTANT: Omit this field to use ' +
          'the default directory. DO NOT enter "undefined" or "null" - simply omit it for the default behavior. Must be ' +
          'a valid directory path if provided.',
      ),
  }),
  async execute(input, context) {
    await context.ask({
      permission: 'glob',
      patterns: [input.pattern],
      always: ['*'],
      metadata: { pattern: input.pattern, path: input.path },
    })
    const workspace = context.workspace
    const search = resolvePath(workspace.root, input.path ?? '.')
    await assertExternalDirectory(context, search, { kind: 'directory' })
    const info = await workspace.stat(search)
    if (!info) throw new Error(`Directory not found: ${search}`)
    if (info.type !== 'directory') throw new Error(`The glob path must be a directory, but ${search} is a file`)

    // One more than the limit tells whether anything was left out.
    const found = await workspace.glob(input.pattern, { cwd: search, limit: GLOB_LIMIT + 1 })
    const truncated = found.length > GLOB_LIMIT
    const files = found.slice(0, GLOB_LIMIT).map((file) => resolvePath(search, file))

    const output: string[] = []
    if (files.length === 0) output.push('No files found')
    else {
      output.push(...files)
      if (truncated) output.push('', '(Results are truncated. Consider using a more specific path or pattern.)')
    }
    return {
      title: relativePath(workspace.root, search),
      output: output.join('\n'),
      metadata: { count: files.length, truncated },
    }
  },
})
