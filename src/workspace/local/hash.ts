/**
 * SHA-256 of some bytes as lower-case hex: the key of the `blobs` store, which the workspace and the snapshots
 * (`src/snapshot/track.ts`) share, so a file's content is stored once whoever writes it first.
 */
export async function hashContent(data: Uint8Array): Promise<string> {
  // The cast only narrows the buffer type for lib.dom's BufferSource; workspace bytes never live in shared memory.
  const digest = await crypto.subtle.digest('SHA-256', data as Uint8Array<ArrayBuffer>)
  let hex = ''
  for (const byte of new Uint8Array(digest)) hex += byte.toString(16).padStart(2, '0')
  return hex
}
