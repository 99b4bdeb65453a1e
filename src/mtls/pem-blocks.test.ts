import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readPemBlocks } from './pem-blocks.js';

const block = (label: string, body = 'AAECAw==') => `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----\n`;

describe('PEM blocks', () => {
  it('decodes each block with its label', () => {
    const read = readPemBlocks(`${block('CERTIFICATE')}\n${block('CERTIFICATE', 'BAUG')}`);
    assert.deepEqual(read.blocks.map((b) => [b.label, b.der.toString('hex')]), [['CERTIFICATE', '00010203'], ['CERTIFICATE', '040506']]);
    assert.equal(read.malformed, false);
    assert.equal(read.privateKey, false);
  });

  it('marks text outside the blocks, a body that is not base64 and an unterminated block as malformed', () => {
    assert.equal(readPemBlocks(`hello ${block('CERTIFICATE')}`).malformed, true);
    assert.equal(readPemBlocks(block('CERTIFICATE', 'AAE*Aw==')).malformed, true);
    assert.equal(readPemBlocks(block('CERTIFICATE', 'AAECA')).malformed, true);
    assert.equal(readPemBlocks('-----BEGIN CERTIFICATE-----\nAAECAw==\n').malformed, true);
    assert.equal(readPemBlocks(`${block('CERTIFICATE')}`.replace('END CERTIFICATE', 'END PUBLIC KEY')).malformed, true);
  });

  it('recognizes a private key in every PEM form, even with a damaged armour', () => {
    for (const label of ['PRIVATE KEY', 'RSA PRIVATE KEY', 'EC PRIVATE KEY', 'ENCRYPTED PRIVATE KEY', 'OPENSSH PRIVATE KEY']) {
      assert.equal(readPemBlocks(block(label)).privateKey, true, label);
    }
    assert.equal(readPemBlocks('-----BEGIN PRIVATE KEY-----\nMIIE...').privateKey, true);
  });
});
