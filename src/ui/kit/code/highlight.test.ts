// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest'
import { describeLanguage, highlightInto, highlightTokens } from './highlight'

describe('describeLanguage', () => {
  test('picks the language from a file name: extension, exact name, any folder', () => {
    expect(describeLanguage({ file: 'src/app.tsx' })?.name).toBe('TSX')
    expect(describeLanguage({ file: '/workspace/main.py' })?.name).toBe('Python')
    expect(describeLanguage({ file: 'styles/site.css' })?.name).toBe('CSS')
    expect(describeLanguage({ file: 'Dockerfile' })?.name).toBe('Dockerfile')
    expect(describeLanguage({ file: 'notes.unknownext' })).toBeUndefined()
  })

  test('picks the language from a fence info string: a name, an alias or an extension, attributes ignored', () => {
    expect(describeLanguage({ fence: 'typescript' })?.name).toBe('TypeScript')
    expect(describeLanguage({ fence: 'ts title="a.ts"' })?.name).toBe('TypeScript')
    expect(describeLanguage({ fence: 'py' })?.name).toBe('Python')
    expect(describeLanguage({ fence: 'JSON' })?.name).toBe('JSON')
    expect(describeLanguage({ fence: 'rs' })?.name).toBe('Rust')
    expect(describeLanguage({ fence: '' })).toBeUndefined()
    expect(describeLanguage({ fence: 'not-a-language' })).toBeUndefined()
  })
})

describe('highlightTokens', () => {
  test('classes keywords, strings, numbers and comments, and gives the text back unchanged', async () => {
    const code = 'const greeting = "hi" // say it\nlet n = 42\n'
    const tokens = await highlightTokens(code, { file: 'a.js' })
    expect(tokens.map((token) => token.text).join('')).toBe(code)
    const classOf = (text: string) => tokens.find((token) => token.text === text)?.classes
    expect(classOf('const')).toBe('tok-keyword')
    expect(classOf('"hi"')).toBe('tok-string')
    expect(classOf('42')).toBe('tok-number')
    expect(classOf('// say it')).toBe('tok-comment')
    expect(tokens.filter((token) => token.text === '\n')).toHaveLength(2)
  })

  test('loads another language on first use (Python from a fence)', async () => {
    const tokens = await highlightTokens('def f():\n    return None\n', { fence: 'python' })
    expect(tokens.find((token) => token.text === 'def')?.classes).toBe('tok-keyword')
  })

  test('an unknown language is one plain run', async () => {
    expect(await highlightTokens('just <b>text</b>', { fence: 'nope' })).toEqual([{ text: 'just <b>text</b>', classes: '' }])
  })
})

describe('highlightInto', () => {
  test('fills an element with classed spans and text nodes, never markup from the code', async () => {
    const element = document.createElement('code')
    await highlightInto(element, 'let tag = "<img src=x onerror=alert(1)>"', { fence: 'js' })
    expect(element.querySelector('img')).toBeNull()
    expect(element.textContent).toBe('let tag = "<img src=x onerror=alert(1)>"')
    expect(element.querySelector('.tok-keyword')?.textContent).toBe('let')
    expect(element.querySelector('.tok-string')?.textContent).toBe('"<img src=x onerror=alert(1)>"')
  })
})
