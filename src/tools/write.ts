import { z } from 'zod'
import { assertExternalDirectory, permissionPath, resolveToolPath } from './external-directory'
import { markWritten, withFileLock } from './file-times'
import { defineTool, ToolInputError } from './tool'
import { toolFileDiff } from '../core/diff'

export const writeTool = defineTool({
  id: 'write',
  description: [
    'Write a file in the workspace, creating it (and its directories) or replacing its whole content.',
    '',
    'Usage:',
    '- filePath should be absolute, e.g. /workspace/src/index.ts.',
    '- To overwrite an existing file you must have read it first with the read tool, and it must not have changed',
    '  since; otherwise the write fails and asks you to read it again.',
    '- To change part of an existing file, use the edit tool instead. Use write for new files and complete rewrites.',
    '- Do not create documentation files (*.md, README) unless the user asks for them.',
  ].join('\n'),
  parameters: z.object({
    filePath: z.string().describe('The absolute path to the file to write (a relative path is taken from the workspace root)'),
    content: z.string().describe('The content to write to the file'),
  }),
  async execute(input, context) {
    const path = resolveToolPath(context, input.filePath)
    await assertExternalDirectory(context, path)
    const title = permissionPath(context, path)
    return withFileLock(context.workspace, path, async () => {
      const stat = await context.workspace.stat(path)
      if (stat?.type === 'directory') throw new ToolInputError(`Path is a directory, not a file: ${path}`)
      if (stat) context.files.assertFresh(path, stat.modified)
      const before = stat ? await context.workspace.readText(path) : ''
      const filediff = toolFileDiff(path, before, input.content)
      await context.ask({ permission: 'edit', patterns: [title], always: ['*'], metadata: { filepath: path, diff: filediff.patch } })
      context.abort.throwIfAborted()
      await context.workspace.writeFile(path, input.content)
      await markWritten(context, path)
      return {
        title,
        output: 'Wrote file successfully.',
        metadata: { filepath: path, exists: stat !== undefined, diff: filediff.patch, filediff },
      }
    })
  },
})
