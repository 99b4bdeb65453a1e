/**
 * The partner guide's "Without a shared secret" worked example, run as printed against a listening gateway,
 * in a partner's project set up as the guide's "Install" says (the SDK from its tarballs, outside the
 * repository, with the guide's TypeScript examples): its settings block is the only one replaced (by this
 * gateway's addresses); every other shell block runs in bash in that project, in order, with the guide's `js`
 * files written there under the names their first line gives; the output a block shows in its comments must
 * be what it printed. The partner `acme` is the one the example itself creates.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startListeningGateway } from '../support/key-partner.js';
import { guideSection, setUpGuideProject } from '../support/partner-guide.js';
import { createPartnerProject, type PartnerProject } from '../support/partner-project.js';
import { testBackends } from '../support/test-databases.js';
import { TEST_ADMIN_TOKEN, type TestGateway } from '../support/test-gateway.js';

const section = guideSection('Without a shared secret');
const blocks = [...section.matchAll(/```(\w+)\n([^]*?)```/g)].map(([, lang, text]) => ({ lang: lang!, text: text! }));

describe('the guide\'s worked example without a shared secret, against a listening gateway', () => {
  let t: TestGateway & { url: string };
  let adminUrl: string;
  let project: PartnerProject;
  before(async () => {
    [t, project] = await Promise.all([startListeningGateway(testBackends()[0]!), createPartnerProject()]);
    adminUrl = await t.admin.listen({ host: '127.0.0.1', port: 0 });
    await setUpGuideProject(project);
  });
  after(async () => {
    await t?.close();
    project?.remove();
  });

  it('starts with a settings block that sets every variable the other blocks use', () => {
    assert.ok(blocks.length >= 6, 'the section has its blocks');
    const settings = blocks[0]!;
    assert.equal(settings.lang, 'sh');
    const set = [...settings.text.matchAll(/^(\w+)=/gm)].map(([, name]) => name!);
    assert.deepEqual(set, ['GATEWAY_URL', 'PARTNER_IP', 'ADMIN_URL', 'ADMIN_TOKEN']);
    for (const block of blocks.slice(1).filter((candidate) => candidate.lang === 'sh')) {
      const local = [...block.text.matchAll(/^(\w+)=/gm)].map(([, name]) => name!);
      for (const [, name] of block.text.matchAll(/\$\{?([A-Za-z_]\w*)/g)) assert.ok([...set, ...local].includes(name!), `$${name} is used but never set`);
    }
  });

  it('runs every block as printed: the partner, its key, registration, a token with curl and the script, banks with DPoP through the SDK and its CLI', async () => {
    const env = { GATEWAY_URL: t.url, PARTNER_IP: '127.0.0.1', ADMIN_URL: adminUrl, ADMIN_TOKEN: TEST_ADMIN_TOKEN };
    await assert.rejects(t.gateway.admin.partners.get('acme'), 'no partner acme before the example creates it');
    const expectedBanks = (await t.gateway.admin.banks.list()).length;
    for (const block of blocks.slice(1)) {
      if (block.lang === 'js') {
        const name = /^\/\/ ([\w.-]+\.mjs):/.exec(block.text)?.[1];
        assert.ok(name, `a js block names its file on its first line: ${block.text.slice(0, 60)}`);
        writeFileSync(join(project.dir, name), block.text);
        continue;
      }
      assert.equal(block.lang, 'sh');
      const result = await project.bash(block.text, env);
      assert.equal(result.code, 0, `${block.text}\n${result.stdout}\n${result.stderr}`);
      // What the block shows it prints, as comment lines, must be what it printed (a token stands for any).
      const shown = block.text.split('\n').filter((line) => line.startsWith('# ')).map((line) => line.slice(2));
      const printed = result.stdout.trim().split('\n').filter(Boolean);
      if (block.text.includes('/api/v1/oauth/token')) {
        assert.equal(shown.length, 1);
        const [answer, sample] = [JSON.parse(printed.at(-1)!), JSON.parse(shown[0]!.replace('eyJ...', 'eyJ'))];
        assert.deepEqual(Object.keys(answer).sort(), Object.keys(sample).sort());
        assert.deepEqual([answer.token_type, answer.expires_in], [sample.token_type, sample.expires_in]);
        assert.match(answer.access_token, /^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
      } else if (shown.length > 0) {
        assert.deepEqual(printed, shown);
        if (block.text.includes('banks-with-dpop.js')) assert.deepEqual(printed, [`banks: ${expectedBanks}`]);
      } else if (block.text.includes('partner-gateway-client banks')) {
        assert.equal(printed.length, expectedBanks + 1, 'the CLI printed the bank table');
      }
    }
    const partner = await t.gateway.admin.partners.get('acme');
    assert.deepEqual(partner.authMethods, ['private_key_jwt'], 'the example switched acme to key authentication');
  });
});
