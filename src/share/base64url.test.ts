import { describe, expect, test } from 'vitest'
import { base64UrlLength, decodeBase64, decodeBase64Url, encodeBase64, encodeBase64Url } from './base64url'

describe('base64url', () => {
  test('round-trips every length and byte value, with the length predicted', () => {
    for (let length = 0; length < 40; length++) {
      const bytes = Uint8Array.from({ length }, (_, index) => (index * 97 + length * 31) % 256)
      const text = encodeBase64Url(bytes)
      expect(text).toMatch(/^[A-Za-z0-9_-]*$/)
      expect(text.length).toBe(base64UrlLength(length))
      expect(decodeBase64Url(text)).toEqual(bytes)
    }
  })

  test('agrees with the platform encoder', () => {
    const bytes = Uint8Array.from({ length: 3000 }, (_, index) => (index * 7919) % 256)
    expect(encodeBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'))
    expect(encodeBase64Url(bytes)).toBe(Buffer.from(bytes).toString('base64url'))
    expect(decodeBase64(Buffer.from(bytes).toString('base64'))).toEqual(bytes)
  })

  test('a character outside the alphabet is corruption', () => {
    expect(() => decodeBase64Url('abc$def')).toThrow(expect.objectContaining({ name: 'ImportCorruptError' }))
  })
})
