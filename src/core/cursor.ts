import { z } from 'zod'
import { InputError } from './errors'

/** Opaque paging cursors: base64url of a small JSON object, checked on the way back in. */
export function encodeCursor(value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value))
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

export function decodeCursor<T>(cursor: string, schema: z.ZodType<T>): T {
  try {
    const padded = cursor.replace(/-/g, '+').replace(/_/g, '/')
    const binary = atob(padded + '='.repeat((4 - (padded.length % 4)) % 4))
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0))
    return schema.parse(JSON.parse(new TextDecoder().decode(bytes)))
  } catch {
    throw new InputError('cursor', 'The paging cursor is not valid; start again from the first page')
  }
}

export const TimeCursorSchema = z.object({ id: z.string(), time: z.number() })
export type TimeCursor = z.infer<typeof TimeCursorSchema>
