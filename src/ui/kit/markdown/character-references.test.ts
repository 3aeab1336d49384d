import { expect, test } from 'vitest'
import { decodeCharacterReferences } from './character-references'

test.each([
  ['a &amp; b', 'a & b'],
  ['&lt;script&gt;', '<script>'],
  ['&#115;&#X73;&#x73;', 'sss'],
  ['&copy; &mdash; &rarr;', '\u00a9 \u2014 \u2192'],
  ['javascript&colon;', 'javascript:'],
  ['&#0; &#xD800; &#1114112;', '\ufffd \ufffd \ufffd'],
])('decodes %j', (text, expected) => {
  expect(decodeCharacterReferences(text)).toBe(expected)
})

test.each(['&unknownname;', '&amp', 'AT&T', '& amp;', '&#;', '&#x;', '&constructor;', '&toString;'])('keeps %j as written', (text) => {
  expect(decodeCharacterReferences(text)).toBe(text)
})
