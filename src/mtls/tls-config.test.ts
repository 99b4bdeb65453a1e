import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../config.js';
import { publicTlsUrl } from './tls-config.js';

const files = { TLS_CERT_FILE: '/etc/gw/tls.pem', TLS_KEY_FILE: '/etc/gw/tls.key' };
const refusal = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.message;
  }
  assert.fail('expected a ConfigError');
};

describe('mutual TLS settings', () => {
  it('accepts an HTTPS listener with its certificate and key, and a client CA file', () => {
    const config = loadConfig({ TLS_PORT: '8443', ...files, TLS_CLIENT_CA_FILE: '/etc/gw/clients-ca.pem' });
    assert.equal(config.TLS_PORT, 8443);
    assert.equal(publicTlsUrl(config), 'https://127.0.0.1:8443');
  });

  it('refuses TLS_PORT without both files, and the files without TLS_PORT', () => {
    assert.match(refusal({ TLS_PORT: '8443' }), /TLS_PORT needs TLS_CERT_FILE and TLS_KEY_FILE/);
    assert.match(refusal({ TLS_PORT: '8443', TLS_CERT_FILE: '/etc/gw/tls.pem' }), /TLS_PORT needs TLS_CERT_FILE and TLS_KEY_FILE/);
    assert.match(refusal({ ...files }), /used only with TLS_PORT/);
    assert.match(refusal({ TLS_PORT: '8080', PORT: '8080', ...files }), /TLS_PORT must differ from PORT/);
  });

  it('refuses CLIENT_CERT_HEADER without TRUST_PROXY, or naming a header with another meaning', () => {
    assert.match(refusal({ CLIENT_CERT_HEADER: 'X-Client-Cert' }), /needs TRUST_PROXY/);
    assert.match(refusal({ CLIENT_CERT_HEADER: 'Authorization', TRUST_PROXY: '10.0.0.1' }), /must not be Authorization/);
    assert.match(refusal({ CLIENT_CERT_HEADER: 'X Client', TRUST_PROXY: '10.0.0.1' }), /CLIENT_CERT_HEADER/);
    assert.equal(loadConfig({ CLIENT_CERT_HEADER: 'X-Client-Cert', TRUST_PROXY: '10.0.0.1' }).CLIENT_CERT_HEADER, 'X-Client-Cert');
  });

  it('takes PUBLIC_TLS_URL as the mTLS address (a proxy\'s, even without TLS_PORT), https only', () => {
    assert.equal(publicTlsUrl(loadConfig({ PUBLIC_TLS_URL: 'https://mtls.example.com/' })), 'https://mtls.example.com');
    assert.equal(publicTlsUrl(loadConfig({})), undefined);
    assert.match(refusal({ PUBLIC_TLS_URL: 'http://mtls.example.com' }), /PUBLIC_TLS_URL/);
  });
});
