import assert from 'node:assert/strict';
import { test } from 'node:test';
import { passkeySiteOf } from './passkey-site.js';

test('when PUBLIC_URL names a host, then passkeys are bound to that host and its origin', () => {
  assert.deepEqual(passkeySiteOf('https://partners.example.com/'), { rpId: 'partners.example.com', origin: 'https://partners.example.com' });
});

test('when PUBLIC_URL is a loopback address, then passkeys use localhost on the same port (WebAuthn takes no IP address)', () => {
  assert.deepEqual(passkeySiteOf('http://127.0.0.1:3000'), { rpId: 'localhost', origin: 'http://localhost:3000' });
  assert.deepEqual(passkeySiteOf('http://[::1]:8080'), { rpId: 'localhost', origin: 'http://localhost:8080' });
});

test('when PUBLIC_URL is any other IP address, then there is no passkey site', () => {
  assert.equal(passkeySiteOf('https://10.0.0.5'), undefined);
  assert.equal(passkeySiteOf('http://[2001:db8::1]:3000'), undefined);
});
