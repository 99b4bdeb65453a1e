/**
 * What each folder may import (docs/architecture.md, "What each folder may import"), checked by
 * test/architecture/import-rules.test.ts in `npm test` and by `npx depcruise --config .dependency-cruiser.cjs src packages console/src`.
 * Type-only imports count: a type is a dependency too.
 */
/** A rule for shipped code: tests may reach into test/support and across folders to set up what they check. */
const rule = (name, comment, from, to) => ({ name, comment, severity: 'error', from: { path: from, pathNot: '\\.test\\.ts$' }, to: { path: to } });

module.exports = {
  forbidden: [
    { name: 'no-circular', comment: 'No import cycle, of values or of types.', severity: 'error', from: {}, to: { circular: true } },
    rule('contract-alone', 'The wire contract depends on typebox only.', '^packages/contract/', '^(src|console|packages/client|test|bench|scripts)/'),
    rule('client-alone', 'The SDK depends on the contract, jose and Node only.', '^packages/client/src/', '^(src|console|test|bench|scripts)/'),
    rule('console-bundle', 'The console bundles the contract and the one shared CIDR rule, nothing else of the server.', '^console/src/', '^src/(?!partners/ip-allowlist\\.ts$)'),
    rule('src-not-tests', 'Nothing under src/ imports tests, benchmarks or scripts.', '^src/(?!.*\\.test\\.ts$)', '^(test|bench|scripts)/'),
    rule('routes-call-operations', 'Routes are schema + one call: no repository, store, database or auth step.', '^src/http/routes/', '^src/(db|stores|auth|partners|banks|keys|audit|operators|approvals)/'),
    rule('plugins-no-storage', 'The HTTP plugins never reach storage.', '^src/http/plugins/', '^src/(db|stores)/|-repository\\.ts$'),
    rule('gateway-below-http', 'The gateway composes modules; it knows nothing of HTTP or the CLI.', '^src/gateway\\.ts$', '^src/(http|cli)/'),
    rule('operations-below-http', 'Operations never see HTTP or SQL.', '^src/operations/', '^src/(http|db|cli)/'),
    rule('auth-below-operations', 'The auth module never reaches up to operations or HTTP.', '^src/auth/', '^src/(operations|http|cli)/|^src/gateway\\.ts$'),
    rule('auth-steps-no-sql', 'Credentials, bindings and steps reach storage only through the repositories they are given.', '^src/auth/(credentials|binding|steps)/', '^src/db/'),
    rule('steps-compose-downward', 'Credentials, bindings and tokens never import the steps that compose them.', '^src/auth/(credentials|binding|tokens)/', '^src/auth/steps/'),
    rule('credentials-not-binding', 'Proving who a client is and checking what a token is bound to stay apart.', '^src/auth/credentials/', '^src/auth/binding/'),
    rule('binding-not-credentials', 'Proving who a client is and checking what a token is bound to stay apart.', '^src/auth/binding/', '^src/auth/credentials/'),
    rule('tokens-at-the-bottom', 'Tokens are the auth module\'s lowest layer.', '^src/auth/tokens/', '^src/auth/(credentials|binding|steps)/'),
    rule('domain-below-auth', 'The domain folders never import auth, operations or HTTP.', '^src/(partners|banks|keys|audit|operators|approvals|stores|cache|async|metrics)/', '^src/(auth|operations|http|cli)/|^src/gateway\\.ts$'),
    rule('health-given-its-checks', 'health/ asks the checks it is given; it reaches no store, domain or HTTP.', '^src/health/', '^src/(db|stores|auth|operations|http|cli|partners|banks|keys|audit|operators|approvals)/|^src/gateway\\.ts$'),
    rule('telemetry-alone', 'telemetry/ is OpenTelemetry\'s set-up: the release\'s version and nothing else of the gateway.', '^src/telemetry/', '^src/(?!version\\.ts$)'),
    rule('csv-alone', 'csv/ writes and reads CSV cells: nothing of the gateway, so any module may use it.', '^src/csv/', '^(src/(?!csv/)|packages/)'),
    rule('net-alone', 'net/ fetches URLs partners and operators configure: Node and ipaddr.js only, so any module may use it.', '^src/net/', '^(src/(?!net/)|packages/)'),
    rule('mtls-transport-only', 'mtls/ is transport: the listener, PEM, names, the forwarded header; no domain, no auth, no HTTP app.', '^src/mtls/', '^src/(auth|partners|banks|keys|audit|operations|db|stores|http)/'),
    rule('request-context-at-the-edge', 'The request context is below everything that uses it: it imports the contract and transport types only.', '^src/request-context\\.ts$', '^src/(?!mtls/)'),
    rule('keys-below-config', 'config.ts reads the master key through keys/; keys/ takes its settings as arguments.', '^src/keys/', '^src/config\\.ts$'),
    rule('db-below-domain', 'The database seam knows no domain.', '^src/db/', '^src/(partners|banks|keys|audit|operators|approvals|auth|operations|http|stores|cli)/'),
    rule('cli-over-http', 'The CLI talks to the admin API over HTTP through the contract\'s client.', '^src/cli/', '^src/(gateway\\.ts|http/|db/|stores/|auth/|operations/)|-repository\\.ts$'),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
  },
};
