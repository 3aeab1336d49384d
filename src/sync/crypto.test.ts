import { describe, expect, it } from 'vitest'
import { deriveKey, deriveKeys, keyedHash, makeKeyCheck, newKeyParameters, open, PBKDF2_ITERATIONS, seal, SyncDecryptError, SyncPassphraseError, verifyKeyCheck } from './crypto'

// A few iterations keep these fast; the default count has its own test.
const parameters = newKeyParameters(1_000)

describe('the sync key', () => {
  it('is derived with a deliberately slow count by default, from a fresh salt each time', async () => {
    const first = newKeyParameters()
    expect(first.iterations).toBe(PBKDF2_ITERATIONS)
    expect(PBKDF2_ITERATIONS).toBeGreaterThanOrEqual(600_000)
    expect(newKeyParameters().salt).not.toBe(first.salt)
    const key = await deriveKey('correct horse', first)
    expect(key.extractable).toBe(false)
    expect(await open(key, 'ses_1', await seal(key, 'ses_1', 'hello'))).toBe('hello')
  })

  it('seals a row so the ciphertext holds none of its text and differs each time', async () => {
    const key = await deriveKey('correct horse', parameters)
    const plain = JSON.stringify({ title: 'Quarterly secret plan' })
    const one = await seal(key, 'ses_1', plain)
    const two = await seal(key, 'ses_1', plain)
    expect(one.iv).not.toBe(two.iv)
    expect(one.data).not.toBe(two.data)
    expect(atob(one.data)).not.toContain('secret')
    expect(await open(key, 'ses_1', one)).toBe(plain)
  })

  it('refuses a ciphertext moved to another id, changed, or opened with another passphrase', async () => {
    const key = await deriveKey('correct horse', parameters)
    const sealed = await seal(key, 'msg_1', 'text')
    await expect(open(key, 'msg_2', sealed)).rejects.toSatisfy((error) => SyncDecryptError.isInstance(error))
    const flipped = atob(sealed.data)
    const changed = { ...sealed, data: btoa(String.fromCharCode(flipped.charCodeAt(0) ^ 1) + flipped.slice(1)) }
    await expect(open(key, 'msg_1', changed)).rejects.toSatisfy((error) => SyncDecryptError.isInstance(error))
    const other = await deriveKey('battery staple', parameters)
    await expect(open(other, 'msg_1', sealed)).rejects.toSatisfy((error) => SyncDecryptError.isInstance(error))
  })

  it('checks a passphrase against the key check before anything else', async () => {
    const key = await deriveKey('correct horse', parameters)
    const check = await makeKeyCheck(key, 'tabcode:keycheck')
    await expect(verifyKeyCheck(key, 'tabcode:keycheck', check)).resolves.toBeUndefined()
    const wrong = await deriveKey('correct hors', parameters)
    await expect(verifyKeyCheck(wrong, 'tabcode:keycheck', check)).rejects.toSatisfy((error) => SyncPassphraseError.isInstance(error))
  })

  it('gives a second key for names: the same on every device with the passphrase, unexportable, telling nothing of the content key', async () => {
    const one = await deriveKeys('correct horse', parameters)
    const again = await deriveKeys('correct horse', parameters)
    const other = await deriveKeys('battery staple', parameters)
    expect(one.ids.extractable).toBe(false)
    expect(await keyedHash(one.ids, 'file\nprj_1\n/workspace/plan.md')).toBe(await keyedHash(again.ids, 'file\nprj_1\n/workspace/plan.md'))
    expect(await keyedHash(one.ids, 'file\nprj_1\n/workspace/plan.md')).not.toBe(await keyedHash(other.ids, 'file\nprj_1\n/workspace/plan.md'))
    expect(await keyedHash(one.ids, 'a')).toMatch(/^[0-9a-f]{32}$/)
    // The content key is not the id key: what one seals the other cannot be asked to sign, and vice versa.
    await expect(crypto.subtle.sign('HMAC', one.content, new Uint8Array(1))).rejects.toThrow()
    await expect(open(one.content, 'ses_1', await seal(again.content, 'ses_1', 'hello'))).resolves.toBe('hello')
  })
})
