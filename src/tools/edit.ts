import { z } from 'zod'
import { assertExternalDirectory, permissionPath, resolveToolPath } from './external-directory'
import { markWritten, withFileLock } from './file-times'
import { IDENTICAL_MESSAGE, replace, ReplaceError } from './replace'
import { defineTool, ToolInputError } from './tool'
import { toolFileDiff } from '../core/diff'

const BOM = '\uFEFF'

function splitBom(text: string): { bom: boolean; text: string } {
  return text.startsWith(BOM) ? { bom: true, text: text.slice(1) } : { bom: false, text }
}

function toLf(text: string): string {
  return text.replaceAll('\r\n', '\n')
}

function toCrlf(text: string): string {
  return text.replaceAll('\n', '\r\n')
}

/**
 * `replace` on a file's text keeping its line endings: the strings the model sends are LF (or whatever it typed)
 * and are matched against the text with LF endings; a CRLF file gets CRLF back, replacement included. A file that
 * mixes both is matched as it is, with oldString and newString in CRLF (opencode's approach), so its other lines
 * keep their endings.
 */
export function applyEdit(content: string, oldString: string, newString: string, replaceAll = false): string {
  const old = toLf(oldString)
  const next = toLf(newString)
  if (!content.includes('\r\n')) return replace(content, old, next, replaceAll).content
  const lf = toLf(content)
  if (toCrlf(lf) === content) return toCrlf(replace(lf, old, next, replaceAll).content)
  return replace(content, toCrlf(old), toCrlf(next), replaceAll).content
}

export const editTool = defineTool({
  id: 'edit',
  description: [
    'Replace text in a file: oldString becomes newString.',
    '',
    'Usage:',
    '- You must read the file with the read tool before editing it, and read it again if it has changed since;',
    '  otherwise the edit fails.',
    '- Copy oldString from the read output exactly, with its indentation (tabs or spaces) as it appears AFTER the',
    '  line number prefix (`12: `). Never include any part of that prefix in oldString or newString.',
    '- The edit fails if oldString is not found, or if it is found more than once: then give more surrounding lines',
    '  to make it unique, or set replaceAll to change every occurrence (handy for renaming).',
    '- An empty oldString creates the file with newString as its content (or replaces the whole content of a file',
    '  you have read).',
    '- Prefer editing existing files to creating new ones. Only add emojis if the user asks for them.',
  ].join('\n'),
  parameters: z.object({
    filePath: z.string().describe('The absolute path to the file to modify (a relative path is taken from the workspace root)'),
    oldString: z.string().describe('The text to replace'),
    newString: z.string().describe('The text to replace it with (must be different from oldString)'),
    replaceAll: z.boolean().optional().describe('Replace all occurrences of oldString (default false)'),
  }),
  async execute(input, context) {
    if (input.oldString === input.newString) throw new ReplaceError('identical', IDENTICAL_MESSAGE)
    const path = resolveToolPath(context, input.filePath)
    await assertExternalDirectory(context, path)
    const title = permissionPath(context, path)
    return withFileLock(context.workspace, path, async () => {
      const stat = await context.workspace.stat(path)
      if (stat?.type === 'directory') throw new ToolInputError(`Path is a directory, not a file: ${path}`)
      if (!stat && input.oldString !== '') {
        throw new ToolInputError(`File ${path} not found. To create it, use the write tool (or edit with an empty oldString).`)
      }
      if (stat) context.files.assertFresh(path, stat.modified)
      const source = splitBom(stat ? await context.workspace.readText(path) : '')
      const after = splitBom(input.oldString === '' ? input.newString : applyEdit(source.text, input.oldString, input.newString, input.replaceAll))
      const content = (source.bom || after.bom ? BOM : '') + after.text

      const filediff = toolFileDiff(path, source.text, after.text)
      await context.ask({ permission: 'edit', patterns: [title], always: ['*'], metadata: { filepath: path, diff: filediff.patch } })
      context.abort.throwIfAborted()
      await context.workspace.writeFile(path, content)
      await markWritten(context, path)
      return { title, output: 'Edit applied successfully.', metadata: { diff: filediff.patch, filediff } }
    })
  },
})
