import { z } from 'zod'
import { basename, dirname } from '../workspace/path'
import type { FileStat } from '../workspace/workspace'
import { assertExternalDirectory, permissionPath, resolveToolPath } from './external-directory'
import { defineTool, ToolInputError, type ToolContext, type ToolResult } from './tool'
import { OUTPUT_FOLDER } from '../core/paths'
import { checkClaim, describeMismatch } from '../core/file-type'

export const DEFAULT_READ_LIMIT = 2_000
export const MAX_LINE_LENGTH = 2_000
export const MAX_READ_BYTES = 50 * 1024
const MAX_LINE_SUFFIX = `... (line truncated to ${MAX_LINE_LENGTH} chars)`
const MAX_BYTES_LABEL = `${MAX_READ_BYTES / 1024} KB`
/** How many bytes from the start of a file are sniffed for binary content, and the share that may be unprintable. */
const SNIFF_BYTES = 4_096
const MAX_UNPRINTABLE_SHARE = 0.3

/** Extensions refused without looking at the content (opencode's list). */
const BINARY_EXTENSIONS = new Set(
  'zip tar gz exe dll so class jar war 7z doc docx xls xlsx ppt pptx odt ods odp bin dat obj o a lib wasm pyc pyo'.split(' '),
)

/** What opencode would attach instead of reading as text (SVG is text, so it is read like any file). */
const MEDIA_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  ico: 'image/x-icon',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  avif: 'image/avif',
  heic: 'image/heic',
  pdf: 'application/pdf',
}

/** What every provider that sees media takes; others (BMP, TIFF, HEIC...) would make each later request fail. */
const ATTACHABLE = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf'])

/** Larger media are not attached: providers refuse them (Anthropic takes 5 MB images, 32 MB PDFs) and the part would be huge. */
const MAX_MEDIA_BYTES = 10 * 1024 * 1024

function toBase64(bytes: Uint8Array): string {
  let binary = ''
  for (let index = 0; index < bytes.length; index += 0x8000) binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000))
  return btoa(binary)
}

const encoder = new TextEncoder()
// The default decoder drops a BOM: it is not part of the first line the model should see (or copy into an edit).
const decoder = new TextDecoder('utf-8')

function extension(path: string): string {
  const name = basename(path)
  const dot = name.lastIndexOf('.')
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase()
}

/** Binary by extension, by a NUL byte, or by more than 30% control characters in the first 4 KB. */
export function isBinaryFile(path: string, data: Uint8Array): boolean {
  if (BINARY_EXTENSIONS.has(extension(path))) return true
  const sample = data.subarray(0, SNIFF_BYTES)
  if (sample.length === 0) return false
  let unprintable = 0
  for (const byte of sample) {
    if (byte === 0) return true
    if (byte < 9 || (byte > 13 && byte < 32)) unprintable++
  }
  return unprintable / sample.length > MAX_UNPRINTABLE_SHARE
}

/** The lines of a text, as a line reader gives them: CRLF or LF ends a line, and a final newline adds no line. */
function splitLines(text: string): string[] {
  if (text === '') return []
  const lines = text.split(/\r?\n/)
  if (lines.at(-1) === '') lines.pop()
  return lines
}

interface Page {
  lines: string[]
  offset: number
  total: number
  /** More lines follow the page. */
  more: boolean
  /** The page stopped at the byte cap rather than the line limit. */
  cut: boolean
}

function page(text: string, offset: number, limit: number): Page {
  const all = splitLines(text)
  if (all.length < offset && !(all.length === 0 && offset === 1)) {
    throw new ToolInputError(`Offset ${offset} is out of range for this file (${all.length} lines)`)
  }
  const lines: string[] = []
  let bytes = 0
  let cut = false
  for (let index = offset - 1; index < all.length && lines.length < limit; index++) {
    const full = all[index]!
    const line = full.length > MAX_LINE_LENGTH ? full.slice(0, MAX_LINE_LENGTH) + MAX_LINE_SUFFIX : full
    const size = encoder.encode(line).length + (lines.length > 0 ? 1 : 0)
    if (bytes + size > MAX_READ_BYTES) {
      cut = true
      break
    }
    lines.push(line)
    bytes += size
  }
  return { lines, offset, total: all.length, cut, more: cut || offset - 1 + lines.length < all.length }
}

/** opencode's read output: numbered lines in `<content>`, and a footer saying where the rest is. */
function formatPage(path: string, { lines, offset, total, more, cut }: Page): string {
  const last = offset + lines.length - 1
  const footer = cut
    ? `(Output capped at ${MAX_BYTES_LABEL}. Showing lines ${offset}-${last}. Use offset=${last + 1} to continue.)`
    : more
      ? `(Showing lines ${offset}-${last} of ${total}. Use offset=${last + 1} to continue.)`
      : `(End of file - total ${total} lines)`
  return [
    `<path>${path}</path>`,
    '<type>file</type>',
    '<content>',
    lines.map((line, index) => `${index + offset}: ${line}`).join('\n'),
    '',
    footer,
    '</content>',
  ].join('\n')
}

function textResult(title: string, path: string, text: string, input: ReadInput): ToolResult {
  const result = page(text, input.offset ?? 1, input.limit ?? DEFAULT_READ_LIMIT)
  return {
    title,
    output: formatPage(path, result),
    metadata: { preview: result.lines.slice(0, 20).join('\n'), truncated: result.more },
  }
}

async function listDirectory(context: ToolContext, title: string, path: string, input: ReadInput): Promise<ToolResult> {
  const entries = (await context.workspace.list(path))
    .map((entry) => (entry.type === 'directory' ? `${entry.name}/` : entry.name))
    .sort((a, b) => a.localeCompare(b))
  const offset = input.offset ?? 1
  const shown = entries.slice(offset - 1, offset - 1 + (input.limit ?? DEFAULT_READ_LIMIT))
  const truncated = offset - 1 + shown.length < entries.length
  const footer = truncated
    ? `(Showing ${shown.length} of ${entries.length} entries. Use 'offset' parameter to read beyond entry ${offset + shown.length})`
    : `(${entries.length} entries)`
  return {
    title,
    output: [`<path>${path}</path>`, '<type>directory</type>', '<entries>', shown.join('\n'), '', footer, '</entries>'].join('\n'),
    metadata: { preview: shown.slice(0, 20).join('\n'), truncated },
  }
}

/** "File not found", with up to three names in the same directory that contain the missing one or are contained in it. */
async function notFound(context: ToolContext, path: string): Promise<ToolInputError> {
  const directory = dirname(path)
  const wanted = basename(path).toLowerCase()
  const entries = await context.workspace.list(directory).catch((): FileStat[] => [])
  const similar = entries
    .filter((entry) => {
      const name = entry.name.toLowerCase()
      return name.includes(wanted) || wanted.includes(name)
    })
    .map((entry) => entry.path)
    .slice(0, 3)
  if (similar.length === 0) return new ToolInputError(`File not found: ${path}`)
  return new ToolInputError(`File not found: ${path}\n\nDid you mean one of these?\n${similar.join('\n')}`)
}

/** A whole tool output kept behind a truncated result, paged like a file. */
async function readToolOutput(context: ToolContext, path: string, input: ReadInput): Promise<ToolResult> {
  await context.ask({ permission: 'read', patterns: [permissionPath(context, path)], always: ['*'], metadata: {} })
  const saved = await context.outputs.read(basename(path))
  if (saved === undefined) {
    throw new ToolInputError(`File not found: ${path} (no saved tool output has this id)`)
  }
  return textResult(basename(path), path, saved, input)
}

const parameters = z.object({
  filePath: z.string().describe('The absolute path to the file or directory to read (a relative path is taken from the workspace root)'),
  offset: z.coerce.number().int().min(1).optional().describe('The line number to start reading from (1-indexed)'),
  limit: z.coerce.number().int().min(1).optional().describe('The maximum number of lines to read (defaults to 2000)'),
})

type ReadInput = z.infer<typeof parameters>

export const readTool = defineTool({
  id: 'read',
  description: [
    'Read a file or list a directory in the workspace (the project lives under /workspace).',
    '',
    'Usage:',
    '- filePath should be absolute, e.g. /workspace/src/index.ts.',
    '- By default it reads up to 2000 lines from the start of the file. offset (1-based line number) and limit read',
    '  a part, which is handy for long files; otherwise read the whole file.',
    '- Lines longer than 2000 characters are cut.',
    '- Each line is shown as its line number, a colon and a space, then the text (`12: const x = 1`). Only the text',
    '  after that prefix is file content: never copy the prefix into an edit.',
    '- A directory lists its entries, subdirectories ending with /.',
    '- Binary files cannot be read; images and PDFs are attached to the result for you to see.',
    '- A truncated tool output names a /.tabcode/tool-output/… path: read it here with offset and limit.',
    '- Read several files in parallel when they may all be useful.',
  ].join('\n'),
  parameters,
  async execute(input, context) {
    const path = resolveToolPath(context, input.filePath)
    if (dirname(path) === OUTPUT_FOLDER) return readToolOutput(context, path, input)

    const stat = await context.workspace.stat(path)
    await assertExternalDirectory(context, path, { kind: stat?.type === 'directory' ? 'directory' : 'file' })
    const title = permissionPath(context, path)
    await context.ask({ permission: 'read', patterns: [title], always: ['*'], metadata: {} })
    if (!stat) throw await notFound(context, path)
    if (stat.type === 'directory') return listDirectory(context, title, path, input)

    const media = MEDIA_TYPES[extension(path)]
    if (media && !ATTACHABLE.has(media)) {
      return {
        title,
        output: `${path} is an image (${media}, ${stat.size} bytes) in a format models do not take (PNG, JPEG, GIF, WebP), so it cannot be shown here.`,
        metadata: { mime: media, size: stat.size, truncated: false },
      }
    }
    if (media) {
      const kind = media === 'application/pdf' ? 'PDF' : 'Image'
      if (stat.size > MAX_MEDIA_BYTES) {
        return {
          title,
          output: `${path} is ${kind === 'PDF' ? 'a PDF' : 'an image'} of ${stat.size} bytes, over the ${MAX_MEDIA_BYTES / 1024 / 1024} MB the read tool attaches.`,
          metadata: { mime: media, size: stat.size, truncated: false },
        }
      }
      const bytes = await context.workspace.readFile(path)
      // The extension is a claim: a `.png` of text or a `.pdf` that is an archive is named, not sent as what it claims.
      const checked = checkClaim(media, bytes)
      if (checked.kind === 'broken') {
        return {
          title,
          output: describeMismatch(path, checked.mismatch, 'it was not attached'),
          metadata: { mime: media, size: stat.size, truncated: false },
        }
      }
      // As opencode does: the file goes to the model as an attachment of the result (an image with the type its
      // bytes have: a JPEG saved as `.png` goes as a JPEG).
      const mime = checked.mime
      const output = `${kind} read successfully`
      return {
        title,
        output,
        metadata: { mime, size: stat.size, preview: output, truncated: false },
        attachments: [{ mime, url: `data:${mime};base64,${toBase64(bytes)}`, filename: basename(path) }],
      }
    }

    const data = await context.workspace.readFile(path)
    if (isBinaryFile(path, data)) throw new ToolInputError(`Cannot read binary file: ${path}`)
    const result = textResult(title, path, decoder.decode(data), input)
    // The version read is the one stat saw; if the file changed in between, the next edit asks for a fresh read.
    context.files.read(path, stat.modified)
    return result
  },
})
