// Run by run-tests.test.ts through scripts/run-tests.mjs (its name keeps it out of the full run).
import { describe, it } from 'node:test';

describe('needs a server', { skip: 'TEST_SERVER_URL is not set' }, () => {
  it('would talk to it', () => {});
  it('would talk to it again', () => {});
});

describe('needs another server', { skip: 'TEST_SERVER_URL is not set' }, () => {
  it('would talk to it', () => {});
});

describe('runs', () => {
  it('passes', () => {});
  it('needs a compiler', { skip: 'cc is not installed' }, () => {});
});
