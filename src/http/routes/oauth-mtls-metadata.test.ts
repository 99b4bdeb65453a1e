import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { testBackends } from '../../../test/support/test-databases.js';
import { startTestGateway, type TestGateway } from '../../../test/support/test-gateway.js';

const [backend] = testBackends();

describe('the metadata document and mutual TLS (RFC 8705)', () => {
  const gateways: TestGateway[] = [];
  after(() => Promise.all(gateways.map((t) => t.close())));
  const metadataOf = async (env: Record<string, string>) => {
    const t = await startTestGateway(backend!, { env, seedBanks: false });
    gateways.push(t);
    return (await t.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' })).json();
  };

  it('says nothing of certificates when the gateway takes none (no TLS_PORT, no PUBLIC_TLS_URL)', async () => {
    const metadata = await metadataOf({});
    assert.equal(metadata.tls_client_certificate_bound_access_tokens, undefined);
    assert.equal(metadata.mtls_endpoint_aliases, undefined);
    assert.ok(!metadata.token_endpoint_auth_methods_supported.includes('tls_client_auth'));
    assert.ok(!metadata.token_endpoint_auth_methods_supported.includes('self_signed_tls_client_auth'));
  });

  it('behind a TLS-terminating proxy, names PUBLIC_TLS_URL as the mutual-TLS endpoints', async () => {
    const metadata = await metadataOf({ PUBLIC_TLS_URL: 'https://mtls.gateway.example/', PUBLIC_URL: 'https://gateway.example' });
    assert.equal(metadata.tls_client_certificate_bound_access_tokens, true);
    assert.deepEqual(metadata.mtls_endpoint_aliases, {
      token_endpoint: 'https://mtls.gateway.example/api/v1/oauth/token',
      introspection_endpoint: 'https://mtls.gateway.example/api/v1/oauth/introspect',
      revocation_endpoint: 'https://mtls.gateway.example/api/v1/oauth/revoke',
    });
    assert.equal(metadata.token_endpoint, 'https://gateway.example/api/v1/oauth/token', 'the plain endpoints stay');
    assert.deepEqual(metadata.revocation_endpoint_auth_methods_supported.slice(-2), ['self_signed_tls_client_auth', 'tls_client_auth']);
  });
});
