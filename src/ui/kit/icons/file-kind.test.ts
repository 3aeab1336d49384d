import { expect, it } from 'vitest'
import { fileKind } from './file-kind'

it('picks the icon family by name and extension', () => {
  expect(fileKind('src', 'directory')).toBe('folder')
  expect(fileKind('app.TSX', 'file')).toBe('code')
  expect(fileKind('index.html', 'file')).toBe('markup')
  expect(fileKind('site.css', 'file')).toBe('style')
  expect(fileKind('data.json', 'file')).toBe('data')
  expect(fileKind('README.md', 'file')).toBe('text')
  expect(fileKind('logo.png', 'file')).toBe('image')
  expect(fileKind('package.json', 'file')).toBe('config')
  expect(fileKind('vite.config.ts', 'file')).toBe('config')
  expect(fileKind('.gitignore', 'file')).toBe('config')
  expect(fileKind('LICENSE', 'file')).toBe('file')
  expect(fileKind('.hidden', 'file')).toBe('file')
})
