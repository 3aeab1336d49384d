import { describe, expect, test } from 'vitest'
import { classifyImageSource, isExternalHref, safeLinkHref } from './link-safety'

describe('safeLinkHref', () => {
  test.each([
    ['https://example.com/a?b=1#c', 'https://example.com/a?b=1#c'],
    ['http://example.com', 'http://example.com'],
    ['HTTPS://EXAMPLE.COM', 'HTTPS://EXAMPLE.COM'],
    ['mailto:someone@example.com', 'mailto:someone@example.com'],
    ['#section', '#section'],
    ['/docs/page', '/docs/page'],
    ['./file.ts', './file.ts'],
    ['../up/file.ts', '../up/file.ts'],
    ['?query=1', '?query=1'],
    ['//cdn.example.com/x', '//cdn.example.com/x'],
    ['docs/page:with-colon', 'docs/page:with-colon'],
    ['  https://example.com  ', 'https://example.com'],
    ['https://exa\nmple.com', 'https://example.com'],
  ])('allows %j', (href, expected) => {
    expect(safeLinkHref(href)).toBe(expected)
  })

  test.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    '\u0000javascript:alert(1)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    'java\u200bscript:alert(1)',
    'java script:alert(1)',
    'javascript\u0000:alert(1)',
    'java&#115;cript:alert(1)',
    'javascript&colon;alert(1)',
    'jav&#x09;ascript:alert(1)',
    'vbscript:msgbox(1)',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    'data:image/png;base64,AAAA',
    'file:///etc/passwd',
    'blob:https://example.com/uuid',
    'ftp://example.com',
    'tel:+15550100',
    'C:\\Windows',
    '',
    '   ',
  ])('refuses %j', (href) => {
    expect(safeLinkHref(href)).toBeUndefined()
  })
})

describe('isExternalHref', () => {
  test.each([
    ['https://example.com', true],
    ['HTTP://example.com', true],
    ['//example.com', true],
    ['\\\\example.com', true],
    ['mailto:a@example.com', false],
    ['#top', false],
    ['/path', false],
    ['file.md', false],
  ])('%j is external: %s', (href, expected) => {
    expect(isExternalHref(href)).toBe(expected)
  })
})

describe('classifyImageSource', () => {
  test.each([
    'data:image/png;base64,iVBORw0KGgo=',
    'data:image/jpeg;base64,/9j/4AAQ',
    'DATA:IMAGE/GIF;base64,R0lGODlh',
    'data:image/webp,RIFF',
  ])('shows raster data URL %j inline', (src) => {
    expect(classifyImageSource(src)).toEqual({ kind: 'inline', src })
  })

  test('drops whitespace wrapped into a data URL', () => {
    expect(classifyImageSource('data:image/png;base64,iVBO\nRw0K Ggo=')).toEqual({
      kind: 'inline',
      src: 'data:image/png;base64,iVBORw0KGgo=',
    })
  })

  test.each([
    ['https://evil.example/p.png', 'evil.example'],
    ['http://evil.example:8080/p.png', 'evil.example:8080'],
    ['//cdn.example/p.png', 'cdn.example'],
    [' HTTPS://Evil.Example/p.png', 'evil.example'],
  ])('waits for a click before loading %j', (src, host) => {
    expect(classifyImageSource(src)).toEqual({ kind: 'external', src: src.trim(), host })
  })

  test('treats a relative path as external with no host', () => {
    expect(classifyImageSource('images/diagram.png')).toEqual({ kind: 'external', src: 'images/diagram.png', host: '' })
  })

  test.each([
    'data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+',
    'data:image/svg+xml,<svg onload=alert(1)>',
    'data:image/png-not;base64,AAAA',
    'data:text/html,<script>alert(1)</script>',
    'data:,hello',
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    'java&#115;cript:alert(1)',
    'vbscript:x',
    'file:///etc/passwd',
    'blob:https://example.com/uuid',
    'ftp://example.com/p.png',
    'https://',
    '',
  ])('blocks %j', (src) => {
    expect(classifyImageSource(src)).toEqual({ kind: 'blocked' })
  })
})
