import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { projectFile } from '../../src/project-root.js';
import type { Document, Schema } from './document-requests.js';

/**
 * Both documents name the contract's schemas: each schema an operation uses is one entry of
 * `components.schemas`, named by its title (the contract's export name), and referred to by `$ref`. What a
 * partner or an operator would run on them, openapi-typescript (the generator the issue names), then yields
 * `components["schemas"]["BanksResponse"]` rather than an anonymous type per operation; the TypeScript compiler
 * checks that those types are the contract's own. (api-documents.test.ts and openapi.test.ts hold the committed
 * documents equal to the served ones.)
 */

const DOCUMENTS = { public: 'openapi.json', admin: 'admin-openapi.json' } as const;
const CONTRACT = projectFile('packages/contract/src');

function read(file: string): Document & { components: { schemas: Record<string, Schema> } } {
  return JSON.parse(readFileSync(projectFile(file), 'utf8'));
}

/** PascalCase and not ALL_CAPS: the contract's way of naming an exported schema (its Static type shares the name). */
const SCHEMA_NAME = /^[A-Z](?=[A-Za-z0-9]*[a-z])[A-Za-z0-9]*$/;

describe('the named schemas of both documents', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'named-schemas-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('when the contract exports a schema, then its title is its export name (the name its component gets)', async () => {
    const problems: string[] = [];
    for (const file of readdirSync(CONTRACT).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))) {
      const module = (await import(join(CONTRACT, file))) as Record<string, unknown>;
      for (const [name, value] of Object.entries(module)) {
        if (!SCHEMA_NAME.test(name) || value === null || typeof value !== 'object') continue;
        const title = (value as { title?: unknown }).title;
        // Another name for the same schema (RevocationRequestForm = IntrospectionRequestForm) keeps the first one's.
        if (title !== name && !(typeof title === 'string' && module[title] === value)) problems.push(`${file}: ${name} has title ${String(title)}`);
      }
    }
    assert.deepEqual(problems, []);
  });

  it('when an operation of either document takes or answers a JSON object, then it refers to a named schema', () => {
    const anonymous: string[] = [];
    for (const file of Object.values(DOCUMENTS)) {
      const doc = read(file);
      for (const [path, byMethod] of Object.entries(doc.paths)) {
        for (const [method, operation] of Object.entries(byMethod)) {
          const bodies = [['request', operation.requestBody?.content ?? {}], ...Object.entries(operation.responses).map(([status, response]) => [status, response.content ?? {}])] as Array<[string, Record<string, { schema: Schema }>]>;
          for (const [which, content] of bodies) {
            for (const [type, { schema }] of Object.entries(content)) {
              const shaped = schema.type === 'object' || 'properties' in schema || 'anyOf' in schema || 'oneOf' in schema || 'allOf' in schema;
              if (shaped && schema.$ref === undefined) anonymous.push(`${file} ${method} ${path} ${which} ${type}`);
            }
          }
        }
      }
      for (const [name, schema] of Object.entries(doc.components.schemas)) assert.equal(schema.title, name, `${file} components.schemas.${name}`);
    }
    assert.deepEqual(anonymous, []);
  });

  it('when openapi-typescript reads either document, then every component is a named type, the operations use them, and they are the contract\'s types', async () => {
    const named: Record<string, string[]> = {};
    for (const [which, file] of Object.entries(DOCUMENTS)) {
      const doc = read(file);
      named[which] = Object.keys(doc.components.schemas);
      const source = astToString(await openapiTS(doc as unknown as Parameters<typeof openapiTS>[0]));
      writeFileSync(join(dir, `${which}.ts`), source);
      // An operation's body is the named type itself, not an inline copy of it.
      assert.doesNotMatch(source, /schemas: never/, file);
      assert.match(source, which === 'public' ? /"application\/json": components\["schemas"\]\["BanksResponse"\];/ : /"application\/json": components\["schemas"\]\["PartnerView"\];/, file);
    }
    assert.ok(named.public!.length >= 10 && named.admin!.length >= 40, JSON.stringify(named));
    writeFileSync(
      join(dir, 'check.ts'),
      [
        "import type { components as PublicComponents, paths as PublicPaths } from './public.js';",
        "import type { components as AdminComponents, paths as AdminPaths } from './admin.js';",
        "import type { Bank, BanksResponse, TokenResponse } from '@partner-gateway/contract/public-api';",
        "import type { ErrorBody } from '@partner-gateway/contract/error-body';",
        "import type { OAuthRefusal, OAuthTokenResponse } from '@partner-gateway/contract/oauth';",
        "import type { PartnerList, PartnerView, CreatePartnerBody } from '@partner-gateway/contract/admin-partners';",
        "import type { AuditPage } from '@partner-gateway/contract/admin-audit';",
        'type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;',
        'type Narrows<A, B> = [A] extends [B] ? true : false;',
        'type Holds<T extends true> = T;',
        "type Public = PublicComponents['schemas'];",
        "type Admin = AdminComponents['schemas'];",
        // Every component of both documents is a named type.
        ...named.public!.map((name) => `export type Public_${name} = Public['${name}'];`),
        ...named.admin!.map((name) => `export type Admin_${name} = Admin['${name}'];`),
        // The partners' and operators' named types are the contract's.
        'export type Checks = [',
        "  Holds<Same<Public['Bank'], Bank>>,",
        "  Holds<Same<Public['BanksResponse'], BanksResponse>>,",
        "  Holds<Same<Public['BanksResponse']['banks'][number], Public['Bank']>>,",
        "  Holds<Same<Public['TokenResponse'], TokenResponse>>,",
        "  Holds<Same<Public['ErrorBody'], ErrorBody>>,",
        "  Holds<Same<Public['OAuthTokenResponse'], OAuthTokenResponse>>,",
        "  Holds<Same<Public['OAuthRefusal'], OAuthRefusal>>,",
        "  Holds<Same<Admin['PartnerView'], PartnerView>>,",
        "  Holds<Same<Admin['PartnerList'], PartnerList>>,",
        // The served document lists the gateway's reward types (REWARD_TYPES) where the contract takes any string.
        "  Holds<Narrows<Admin['CreatePartnerBody'], CreatePartnerBody>>,",
        "  Holds<Same<Omit<Admin['CreatePartnerBody'], 'rewardTypes'>, Omit<CreatePartnerBody, 'rewardTypes'>>>,",
        "  Holds<Same<Admin['AuditPage'], AuditPage>>,",
        "  Holds<Same<PublicPaths['/partner/provider/sbp/banks/']['post']['responses'][200]['content']['application/json'], Public['BanksResponse']>>,",
        "  Holds<Same<PublicPaths['/api/v1/login/']['post']['requestBody']['content']['application/json'], Public['LoginRequest']>>,",
        "  Holds<Same<AdminPaths['/admin/v1/partners']['get']['responses'][200]['content']['application/json'], Admin['PartnerList']>>,",
        '];',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'es2022',
          module: 'esnext',
          moduleResolution: 'bundler',
          skipLibCheck: true,
          types: [],
          paths: { '@partner-gateway/contract/*': [`${CONTRACT}/*`] },
        },
        files: ['check.ts'],
      }),
    );
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    await promisify(execFile)(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], { maxBuffer: 16 * 1024 * 1024 }).catch((error: { stdout: string; stderr: string }) =>
      assert.fail(`the generated types do not hold:\n${error.stdout}${error.stderr}`),
    );
  });
});
