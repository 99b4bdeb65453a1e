import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PublicFetchError, type PublicFetchRefusal } from './public-fetch-error.js';
import { checkPublicUrl } from './public-url.js';

const REFUSED: [url: string, production: boolean, reason: PublicFetchRefusal][] = [
  ['not a url', false, 'url'], ['/relative/jwks.json', false, 'url'], ['https://user:secret@partner.example/x', true, 'url'],
  ['https://partner.example/x#fragment', true, 'url'], ['ftp://partner.example/x', false, 'scheme'], ['file:///etc/passwd', false, 'scheme'],
  ['http://partner.example/x', false, 'scheme'], ['http://10.0.0.5/x', false, 'scheme'], ['http://127.0.0.1/x', true, 'scheme'],
  ['http://[::7f00:1]/x', false, 'scheme'], ['http://localhost./x', false, 'scheme'],
  ['https://127.0.0.1/x', true, 'address'], ['https://0x7f.1/x', true, 'address'], ['https://[::1]/x', true, 'address'],
  ['https://[::7f00:1]/x', true, 'address'], ['https://[::127.0.0.1]/x', true, 'address'], ['https://[::ffff:169.254.169.254]/x', true, 'address'],
  ['https://[64:ff9b::a00:1]/x', true, 'address'], ['https://[2002:a00:1::1]/x', true, 'address'], ['https://[fd00::1]/x', true, 'address'],
  ['https://100.64.0.1/x', true, 'address'], ['https://198.18.0.1/x', true, 'address'],
];

describe('which URLs may be fetched', () => {
  for (const [url, production, reason] of REFUSED) {
    it(`when the URL is ${url} ${production ? 'in production' : 'outside production'}, then it is refused (${reason})`, () => {
      assert.throws(() => checkPublicUrl(url, production), (error) => error instanceof PublicFetchError && error.reason === reason && !error.message.includes('secret'));
    });
  }

  it('when the URL is https to a name or a global address, or plain http to loopback outside production, then it is taken', () => {
    for (const url of ['https://partner.example/jwks.json', 'https://93.184.215.14/x', 'https://[2606:4700:4700::1111]/x', 'https://[64:ff9b::808:808]/x']) {
      assert.equal(checkPublicUrl(url, true).href, new URL(url).href);
    }
    for (const url of ['http://localhost:8081/x', 'http://127.0.0.1/x', 'http://[::1]/x', 'https://10.0.0.5/x']) assert.ok(checkPublicUrl(url, false));
  });
});
