import { describe, expect, it } from 'vitest'
import { hashContent } from './hash'

describe('hashContent', () => {
  it('is the SHA-256 of the bytes in lower-case hex', async () => {
    expect(await hashContent(new TextEncoder().encode('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
    expect(await hashContent(new Uint8Array())).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
  })
})
