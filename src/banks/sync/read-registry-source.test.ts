import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { zipSync } from 'fflate';
import { ED807_MAY_2023, sbpHeadOffices, zipped } from '../../../test/support/ed807-directory.js';
import { readRegistrySource } from './read-registry-source.js';

describe('readRegistrySource', () => {
  const xml = readFileSync(ED807_MAY_2023);

  it('when the source is the real May 2023 directory as XML, then every head office is read and the SBP ones counted', () => {
    const read = readRegistrySource(xml);
    assert.ok('entries' in read, 'problem' in read ? read.problem : '');
    assert.equal(read.received, sbpHeadOffices().length);
    assert.deepEqual(read.entries.filter((entry) => entry.sbpParticipant).map((entry) => entry.bic), sbpHeadOffices());
  });

  it('when the same directory comes as the ZIP the Bank of Russia publishes, then it reads the same', () => {
    assert.deepEqual(readRegistrySource(zipped(xml)), readRegistrySource(xml));
  });

  it('when a ZIP holds no XML file, or two, or is damaged, then it is a problem in words, not an exception', () => {
    assert.deepEqual(readRegistrySource(Buffer.from(zipSync({ 'readme.txt': Buffer.from('hi') }))), { problem: 'the ZIP holds no XML file' });
    const two = readRegistrySource(Buffer.from(zipSync({ 'a.xml': xml, 'b.xml': xml })));
    assert.ok('problem' in two && /holds 2 XML files \(a\.xml, b\.xml\)/.test(two.problem));
    const damaged = zipped(xml).subarray(0, 5000);
    const cut = readRegistrySource(damaged);
    assert.ok('problem' in cut && /not a readable ZIP/.test(cut.problem), JSON.stringify(cut).slice(0, 200));
  });

  it('when a ZIP unpacks past the limit (a ZIP bomb), then it stops there and says so', () => {
    const bomb = Buffer.from(zipSync({ 'bomb.xml': new Uint8Array(8 * 1024 * 1024) }, { level: 9 }));
    assert.ok(bomb.length < 64 * 1024, 'a few KB that unpack to 8 MB');
    assert.deepEqual(readRegistrySource(bomb, 1024 * 1024), { problem: 'the ZIP unpacks to more than 1048576 bytes' });
  });

  it('when the document is not an ED807 directory, or lists no SBP head office, then it is a problem naming why', () => {
    const html = readRegistrySource(Buffer.from('<html><body>maintenance</body></html>'));
    assert.ok('problem' in html && /^not a usable ED807 directory: .*no ED807 root element/.test(html.problem));
    const empty = readRegistrySource(Buffer.from('<?xml version="1.0"?><ED807 xmlns="urn:cbr-ru:ed:v2.0"></ED807>'));
    assert.deepEqual(empty, { problem: 'the directory lists no SBP head office' });
    assert.ok('problem' in readRegistrySource(Buffer.alloc(0)));
  });
});
