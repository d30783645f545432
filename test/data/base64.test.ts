/**
 * Base64 as the AI SDK writes and reads it: the same text for the same
 * bytes, the same bytes back (base64url too), the same refusals.
 */
import { convertBase64ToUint8Array, convertUint8ArrayToBase64 } from '@ai-sdk/provider-utils';
import { describe, expect, it } from 'vitest';
import { toBase64 } from '../../src/data/base64.ts';
import { fromBase64 } from '../../src/data/from-base64.ts';

const samples = [
  new Uint8Array([]),
  new Uint8Array([0]),
  new Uint8Array([251, 255, 191]),
  new TextEncoder().encode('hello, world'),
  Uint8Array.from({ length: 40_000 }, (_, index) => (index * 7919) % 256),
  new Uint8Array(new ArrayBuffer(16), 3, 9).fill(200),
];

describe('toBase64', () => {
  it.each(samples.map((bytes) => [bytes.length, bytes] as const))(
    "should write %i bytes as the SDK's convertUint8ArrayToBase64",
    (_, bytes) => {
      expect(toBase64(bytes)).toBe(convertUint8ArrayToBase64(bytes));
    },
  );
});

describe('fromBase64', () => {
  it.each(samples.map((bytes) => [bytes.length, bytes] as const))('should read %i bytes back from base64 and base64url', (_, bytes) => {
    const text = convertUint8ArrayToBase64(bytes);
    const url = text.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    expect(fromBase64(text)).toEqual(convertBase64ToUint8Array(text));
    expect(fromBase64(url)).toEqual(convertBase64ToUint8Array(url));
    expect([...fromBase64(url)]).toEqual([...bytes]);
  });

  it.each(['a', 'ab!c', 'é'])('should refuse %j as the SDK does', (text) => {
    expect(() => convertBase64ToUint8Array(text)).toThrow();
    expect(() => fromBase64(text)).toThrow();
  });
});
