import { describe, expect, test } from 'vitest'
import { isLocalServerURL, presetForURL } from './presets'

describe('isLocalServerURL', () => {
  test('loopback and local-network servers are local', () => {
    for (const url of ['http://localhost:11434/v1', 'http://127.0.0.1:1234/v1', 'http://[::1]:8080', 'http://192.168.1.20:11434', 'http://10.0.0.5/v1', 'http://172.20.1.1', 'http://gpu-box.local:8080']) {
      expect(isLocalServerURL(url), url).toBe(true)
    }
  })

  test('public hosts, no URL and a URL that does not parse are not', () => {
    for (const url of ['https://api.openai.com/v1', 'http://172.32.0.1', 'http://localhost.example.com', 'not a url', '', undefined]) {
      expect(isLocalServerURL(url), String(url)).toBe(false)
    }
  })
})

describe('presetForURL', () => {
  test('a local server on a known port is that preset, on any local host', () => {
    expect(presetForURL('http://192.168.1.20:11434/v1')?.id).toBe('ollama')
    expect(presetForURL('https://example.com:11434/v1')).toBeUndefined()
  })
})
