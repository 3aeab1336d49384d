/**
 * SHA-256 of some bytes as lower-case hex: the key of the `blobs` store. Snapshots write blobs under the same keys
 * (`src/snapshot/hash.ts`), so both must stay the same function.
 */
export async function hashContent(data: Uint8Array): Promise<string> {
  // The cast only narrows the buffer type for lib.dom's BufferSource; workspace bytes never live in shared memory.
  const digest = await crypto.subtle.digest('SHA-256', data as Uint8Array<ArrayBuffer>)
  let hex = ''
  for (const byte of new Uint8Array(digest)) hex += byte.toString(16).padStart(2, '0')
  return hex
}
