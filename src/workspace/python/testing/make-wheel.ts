import { createHash } from 'node:crypto'
import { strToU8, zipSync } from 'fflate'
import type { Wheel } from '../wheels'

/**
 * A tiny pure-Python wheel made for the tests: a package `name` whose `VALUE` is `value`, and its dist-info;
 * `extra` adds members as they are named (a hostile wheel's, say).
 */
export function makeWheel(name: string, version: string, value: string, options: { extra?: Record<string, string> } = {}): { wheel: Wheel; data: Uint8Array } {
  const info = `${name}-${version}.dist-info`
  const data = zipSync({
    [`${name}/__init__.py`]: strToU8(`VALUE = ${JSON.stringify(value)}\n`),
    [`${info}/METADATA`]: strToU8(`Metadata-Version: 2.1\nName: ${name}\nVersion: ${version}\n`),
    [`${info}/WHEEL`]: strToU8('Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n'),
    ...Object.fromEntries(Object.entries(options.extra ?? {}).map(([path, text]) => [path, strToU8(text)])),
  })
  const file = `${name}-${version}-py3-none-any.whl`
  const sha256 = createHash('sha256').update(data).digest('hex')
  return { wheel: { type: 'wheel', name, version, file, sha256, size: data.byteLength, requires: [] }, data }
}
