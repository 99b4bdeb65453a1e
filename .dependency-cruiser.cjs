/**
 * What each folder may import (docs/architecture.md, "What each folder may import"), checked by
 * test/architecture/import-rules.test.ts in `npm test` and by `npx depcruise --config .dependency-cruiser.cjs src packages console/src console/portal/src`.
 * Type-only imports count: a type is a dependency too.
 */
/** A rule for shipped code: tests may reach into test/support and across folders to set up what they check. */
const rule = (name, comment, from, to) => ({ name, comment, severity: 'error', from: { path: from, pathNot: '\\.test\\.ts$' }, to: { path: to } });

/**
 * What each folder may import: the table's "May import" column as allow rules. A dependency of shipped code that
 * no rule below allows is an error (`not-in-allowed`), so a new kind of import is a decision written here and in
 * the table, never an accident. Type-only imports are allowed where a rule says `types`: a folder may know the
 * shape of what it is given without calling up into it.
 */
const allow = (comment, from, to, types = false) => ({ comment, from: { path: from, pathNot: '\\.test\\.ts$' }, to: { path: to, ...(types ? { dependencyTypes: ['type-only'] } : {}) } });
/** The leaves every file under src/ may use: the error catalogue, the request context, the contract and small helpers with no dependency of their own. */
const LEAVES = '^(@partner-gateway/contract/|src/(errors|request-context|is-record|project-root|version|gateway-events)\\.ts$|src/(csv|net|async)/)';
/** The domain modules: each owns a concept, its repositories and its rules. */
const DOMAIN = 'src/(partners|partner-users|banks|keys|audit|operators|approvals|webhooks|stores|cache|metrics)/';

const allowed = [
  { comment: 'Tests and their support set up what they check from anywhere.', from: { path: '(\\.test\\.ts$|^test/)' }, to: {} },
  { comment: 'Packages and Node built-ins: which package a folder may use is the forbidden rules\' concern.', from: {}, to: { dependencyTypes: ['core', 'unknown', 'npm', 'npm-dev'] } },
  allow('Within one folder (and its own subfolders).', '^(src/[^/]+|packages/[^/]+|console)/', '^$1/'),
  allow('The contract: typebox and itself.', '^packages/contract/', '^(packages/contract/|typebox)'),
  allow('The SDK: the contract.', '^packages/client/', '^@partner-gateway/contract/'),
  allow('The console: the contract and the one shared CIDR rule.', '^console/src/', '^(@partner-gateway/contract/|src/partners/ip-allowlist\\.ts$)'),
  allow('The portal: the contract and the console\'s stylesheet.', '^console/portal/src/', '^(@partner-gateway/contract/|console/src/styles\\.css$)'),
  allow('The leaves: any file under src/ may use them.', '^src/', LEAVES),
  allow('mtls/ is transport: certificate parsing and the listener, used by every layer that reads a client certificate.', '^src/(auth|partners|http|config\\.ts|server\\.ts|gateway\\.ts|request-context\\.ts)', '^src/mtls/'),
  allow('health/ holds the checks\' shape: metrics report it.', '^src/metrics/', '^src/health/', true),
  allow('The database seam: async helpers only.', '^src/db/', '^src/async/'),
  allow('Domain modules: the database seam, the cache, the settings\' types, the metrics\' types.', `^${DOMAIN}`, '^src/(db/|cache/|config\\.ts$|metrics/)'),
  allow('Partners\' cached repository is shared by the bank catalogue and token families (one cache, one change feed).', '^src/(banks|auth/tokens)/', '^src/partners/cached-partner-repository\\.ts$'),
  allow('Audit reads operator names; banks read partners\' reward types; webhooks read partners and keys; partner users read partners and share the operators\' secret helpers.', '^src/(audit|banks|webhooks|partner-users)/', '^src/(operators|partners|keys)/'),
  allow('Bank changes are checked actions of approvals.', '^src/banks/', '^src/approvals/', true),
  allow('Auth: its tokens, credentials, bindings and steps over the domain modules and the database seam.', '^src/auth/', '^src/(auth|partners|partner-users|keys|stores|cache|db|operators)/|^src/(config)\\.ts$|^src/metrics/'),
  allow('Operations: auth, the domain modules and their metrics.', '^src/operations/', `^src/auth/|^${DOMAIN}`),
  allow('The gateway composes everything below HTTP and the CLI.', '^src/gateway\\.ts$', '^src/(?!http/|cli/)'),
  allow('HTTP: the gateway\'s type, operations\' and metrics\' types, the settings, the plugins\' helpers (addresses, long-string keys), logging and telemetry.', '^src/http/', '^src/(http/|gateway\\.ts$|config\\.ts$|logging/|telemetry/|partners/ip-allowlist\\.ts$|cache/tail-key\\.ts$)'),
  allow('HTTP knows the shapes of what the gateway gives it.', '^src/http/', '^src/(operations|metrics|audit|auth/steps)/', true),
  allow('Logging writes the gateway\'s events and the audit writer\'s failures.', '^src/logging/', '^src/audit/audit-writer\\.ts$'),
  allow('Settings: their secrets\' files, the master key, the listener\'s TLS names.', '^src/config\\.ts$', '^src/(bootstrap|keys)/'),
  allow('Bootstrap: the settings, the database and the first operator\'s and partner\'s set-up through the gateway.', '^src/bootstrap/', '^src/(config\\.ts$|db/|keys/|partners/|gateway\\.ts$)'),
  allow('The CLI over HTTP: its commands, the SDK\'s CLI pieces, the bootstrap token, and the in-process commands it starts.', '^src/cli/', '^(@partner-gateway/client/cli/|src/(bootstrap/|main\\.ts$|migrate-command\\.ts$|restore-command\\.ts$))'),
  allow('The in-process commands: the settings, the database and the CLI\'s pieces.', '^src/(migrate|restore)-command\\.ts$', '^(@partner-gateway/client/cli/|src/(bootstrap/|config\\.ts$|db/|cli/))'),
  allow('Start-up: everything it starts.', '^src/(main|server)\\.ts$', '^src/'),
  allow('telemetry/ is OpenTelemetry\'s set-up.', '^src/telemetry/', '^src/version\\.ts$'),
];

module.exports = {
  allowed,
  allowedSeverity: 'error',
  forbidden: [
    { name: 'no-circular', comment: 'No import cycle, of values or of types.', severity: 'error', from: {}, to: { circular: true } },
    rule('contract-alone', 'The wire contract depends on typebox only.', '^packages/contract/', '^(src|console|packages/client|test|bench|scripts)/'),
    rule('client-alone', 'The SDK depends on the contract, jose and Node only.', '^packages/client/src/', '^(src|console|test|bench|scripts)/'),
    rule('portal-bundle', 'The portal bundles the contract and the console\'s stylesheet, nothing of the server.', '^console/portal/src/', '^src/'),
    rule('console-bundle', 'The console bundles the contract and the one shared CIDR rule, nothing else of the server.', '^console/src/', '^src/(?!partners/ip-allowlist\\.ts$)'),
    rule('src-not-tests', 'Nothing under src/ imports tests, benchmarks or scripts.', '^src/(?!.*\\.test\\.ts$)', '^(test|bench|scripts)/'),
    rule('routes-call-operations', 'Routes are schema + one call: no repository, store, database or auth step.', '^src/http/routes/', '^src/(db|stores|auth|partners|partner-users|banks|keys|audit|operators|approvals)/'),
    rule('plugins-no-storage', 'The HTTP plugins never reach storage.', '^src/http/plugins/', '^src/(db|stores)/|-repository\\.ts$'),
    rule('gateway-below-http', 'The gateway composes modules; it knows nothing of HTTP or the CLI.', '^src/gateway\\.ts$', '^src/(http|cli)/'),
    rule('operations-below-http', 'Operations never see HTTP or SQL.', '^src/operations/', '^src/(http|db|cli)/'),
    rule('auth-below-operations', 'The auth module never reaches up to operations or HTTP.', '^src/auth/', '^src/(operations|http|cli)/|^src/gateway\\.ts$'),
    rule('auth-steps-no-sql', 'Credentials, bindings and steps reach storage only through the repositories they are given.', '^src/auth/(credentials|binding|steps)/', '^src/db/'),
    rule('steps-compose-downward', 'Credentials, bindings and tokens never import the steps that compose them.', '^src/auth/(credentials|binding|tokens)/', '^src/auth/steps/'),
    rule('credentials-not-binding', 'Proving who a client is and checking what a token is bound to stay apart.', '^src/auth/credentials/', '^src/auth/binding/'),
    rule('binding-not-credentials', 'Proving who a client is and checking what a token is bound to stay apart.', '^src/auth/binding/', '^src/auth/credentials/'),
    rule('tokens-at-the-bottom', 'Tokens are the auth module\'s lowest layer.', '^src/auth/tokens/', '^src/auth/(credentials|binding|steps)/'),
    rule('domain-below-auth', 'The domain folders never import auth, operations or HTTP.', '^src/(partners|partner-users|banks|keys|audit|operators|approvals|stores|cache|async|metrics)/', '^src/(auth|operations|http|cli)/|^src/gateway\\.ts$'),
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
