/**
 * The Kubernetes manifests (deploy/kubernetes/: a kustomize base, production and development overlays), rendered
 * as a cluster would get them, by `kubectl kustomize` (which needs no cluster), and every rendered object
 * validated against the Kubernetes schemas (kubernetes-models; the ServiceMonitor against the Prometheus
 * Operator's). Then what the gateway needs of them: probes on the health routes it serves, a grace period that
 * covers its own shutdown, secrets only from an existing Secret, settings that load, migrations before the
 * gateway container starts, and selectors that find the pods. Outside CI a missing kubectl skips the suite;
 * under CI (.ci/run installs Debian's kubernetes-client) it is a failure.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { HEALTH_PATH, READY_PATH } from '@partner-gateway/contract/paths';
import { ServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Service, ServiceAccount } from 'kubernetes-models/v1';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IEnvVar } from 'kubernetes-models/v1/EnvVar';
import { ConfigSchema, loadConfig } from '../../src/config.js';
import { projectFile } from '../../src/project-root.js';
import { AUDIT_DRAIN_MS } from '../../src/server.js';

const KUBECTL = ['/usr/bin/kubectl', '/usr/local/bin/kubectl'].find((path) => spawnSync(path, ['version', '--client'], { encoding: 'utf8' }).status === 0);
const ON_CI = process.env.CI === 'true';
const skip = !KUBECTL && !ON_CI ? 'kubectl not installed (apt-get install kubernetes-client); required when CI=true' : false;

/** What the Secret holds, as an operator would make it (`openssl rand -hex 32`). */
const SECRETS = { DATABASE_URL: 'postgres://gateway:secret@postgres:5432/gateway', ADMIN_TOKEN: randomBytes(32).toString('hex'), MASTER_KEY: randomBytes(32).toString('hex'), METRICS_TOKEN: randomBytes(32).toString('hex') };

/** src/main.ts's margin after the drain, past which the process exits by itself. */
const EXIT_MARGIN_MS = 5_000;

type KubernetesObject = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; labels?: Record<string, string> }; [key: string]: unknown };

/** The model of every kind the manifests may hold: an object of any other kind fails the test. */
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Service': Service,
  'v1/ServiceAccount': ServiceAccount,
  'apps/v1/Deployment': Deployment,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'monitoring.coreos.com/v1/ServiceMonitor': ServiceMonitor,
};

const overlays = readdirSync(projectFile('deploy/kubernetes/overlays'));

function render(overlay: string): KubernetesObject[] {
  const result = spawnSync(KUBECTL!, ['kustomize', projectFile(`deploy/kubernetes/overlays/${overlay}`)], { encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  return parseAllDocuments(result.stdout).map((document) => document.toJSON() as KubernetesObject).filter(Boolean);
}

const matches = (selector: Record<string, string> | undefined, labels: Record<string, string> | undefined) =>
  !!selector && Object.keys(selector).length > 0 && Object.entries(selector).every(([key, value]) => labels?.[key] === value);

describe('the Kubernetes manifests (deploy/kubernetes/)', { skip }, () => {
  it('has a production and a development overlay', () => {
    assert.ok(KUBECTL, 'CI=true but kubectl is missing: apt-get install kubernetes-client');
    assert.deepEqual([...overlays].sort(), ['development', 'production']);
  });

  for (const overlay of overlays) {
    describe(`the ${overlay} overlay, rendered by kubectl kustomize`, () => {
      const objects = KUBECTL ? render(overlay) : [];
      const one = <T>(kind: string) => {
        const found = objects.filter((object) => object.kind === kind);
        assert.equal(found.length, 1, `one ${kind}`);
        return found[0] as unknown as T;
      };

      it('renders only kinds it knows, each valid against its schema, all in one namespace', () => {
        assert.ok(objects.length > 0);
        for (const object of objects) {
          const Model = MODELS[`${object.apiVersion}/${object.kind}`];
          assert.ok(Model, `${object.apiVersion} ${object.kind} has no schema here`);
          assert.doesNotThrow(() => new Model(object as never).validate(), `${object.kind} ${object.metadata.name}`);
        }
        const namespaces = new Set(objects.map((object) => object.metadata.namespace));
        assert.equal(namespaces.size, 1);
        assert.ok([...namespaces][0], 'the overlay sets the namespace');
        for (const kind of ['Deployment', 'Service', 'PodDisruptionBudget', 'HorizontalPodAutoscaler', 'NetworkPolicy', 'ServiceMonitor', 'ConfigMap']) one(kind);
      });

      it('holds no Secret and no secret value: the Deployment reads existing Secrets by secretKeyRef', () => {
        assert.ok(!objects.some((object) => object.kind === 'Secret'));
        const deployment = one<Deployment>('Deployment');
        for (const container of [...(deployment.spec!.template.spec!.initContainers ?? []), ...deployment.spec!.template.spec!.containers]) {
          const env = new Map((container.env ?? []).map((variable) => [variable.name, variable] as const));
          for (const name of ['DATABASE_URL', 'ADMIN_TOKEN', 'MASTER_KEY']) {
            assert.ok(env.get(name)?.valueFrom?.secretKeyRef?.name, `${container.name}: ${name} from a Secret`);
            assert.equal(env.get(name)?.valueFrom?.secretKeyRef?.optional, undefined, `${container.name}: ${name} is required`);
          }
          for (const variable of env.values()) {
            if (/PASSWORD|TOKEN|SECRET|_KEY$|_URL$/.test(variable.name) && variable.name !== 'PUBLIC_URL') assert.equal(variable.value, undefined, `${variable.name} is written literally`);
          }
        }
      });

      it('gives the gateway only settings of src/config.ts, which load in production', () => {
        const deployment = one<Deployment>('Deployment');
        const configMap = one<ConfigMap>('ConfigMap');
        const gateway = deployment.spec!.template.spec!.containers.find((container) => container.name === 'gateway')!;
        assert.deepEqual(gateway.envFrom?.map((source) => source.configMapRef?.name), [configMap.metadata!.name]);
        const names = [...Object.keys(configMap.data ?? {}), ...(gateway.env ?? []).map((variable) => variable.name)];
        for (const name of names) assert.ok(name in ConfigSchema.properties, `${name} is not a setting`);
        const config = loadConfig({ ...configMap.data, ...SECRETS });
        assert.equal(config.NODE_ENV, 'production');
        assert.equal(config.HOST, '0.0.0.0');
        assert.equal(config.ADMIN_HOST, '0.0.0.0', 'Prometheus reaches /metrics on the admin listener');
      });

      it('runs the migrations in an init container, with the gateway\'s own image and settings, before the gateway starts', () => {
        const spec = one<Deployment>('Deployment').spec!.template.spec!;
        const [migrate, ...others] = spec.initContainers ?? [];
        assert.ok(migrate, 'an init container');
        assert.equal(others.length, 0);
        const gateway = spec.containers.find((container) => container.name === 'gateway')!;
        assert.deepEqual(migrate.command?.slice(-2), ['bin/partner-gateway.js', 'migrate']);
        assert.equal(migrate.image, gateway.image);
        assert.deepEqual(migrate.env, gateway.env);
        assert.deepEqual(migrate.envFrom, gateway.envFrom);
      });

      it('probes liveness on /healthz and readiness on /readyz of the public port, which is the gateway\'s PORT', () => {
        const deployment = one<Deployment>('Deployment');
        const gateway = deployment.spec!.template.spec!.containers.find((container) => container.name === 'gateway')!;
        const port = (name: unknown) => gateway.ports?.find((candidate) => candidate.name === name)?.containerPort;
        assert.equal(gateway.livenessProbe?.httpGet?.path, HEALTH_PATH);
        assert.equal(gateway.readinessProbe?.httpGet?.path, READY_PATH);
        assert.equal(gateway.startupProbe?.httpGet?.path, HEALTH_PATH);
        const configMap = one<ConfigMap>('ConfigMap');
        const config = loadConfig({ ...configMap.data, ...SECRETS });
        for (const probe of [gateway.livenessProbe, gateway.readinessProbe, gateway.startupProbe]) assert.equal(port(probe?.httpGet?.port), config.PORT);
        assert.equal(port('admin'), config.ADMIN_PORT);
      });

      it('waits, on termination, for the preStop pause and the gateway\'s whole shutdown before killing it', () => {
        const spec = one<Deployment>('Deployment').spec!.template.spec!;
        const gateway = spec.containers.find((container) => container.name === 'gateway')! as IContainer;
        const pause = Number(gateway.lifecycle?.preStop?.exec?.command?.at(-1));
        assert.ok(pause > 0, 'preStop pauses while the endpoints drop the pod');
        const configMap = one<ConfigMap>('ConfigMap');
        const shutdownMs = loadConfig({ SHUTDOWN_TIMEOUT_MS: configMap.data?.SHUTDOWN_TIMEOUT_MS }).SHUTDOWN_TIMEOUT_MS;
        const needed = pause + (shutdownMs + AUDIT_DRAIN_MS + EXIT_MARGIN_MS) / 1000;
        assert.ok((spec.terminationGracePeriodSeconds ?? 30) >= needed, `terminationGracePeriodSeconds ${spec.terminationGracePeriodSeconds} < ${needed}`);
      });

      it('runs as a non-root user with a read-only root file system', () => {
        const spec = one<Deployment>('Deployment').spec!.template.spec!;
        assert.equal(spec.securityContext?.runAsNonRoot, true);
        for (const container of [...(spec.initContainers ?? []), ...spec.containers]) {
          assert.equal(container.securityContext?.readOnlyRootFilesystem, true, container.name);
          assert.equal(container.securityContext?.allowPrivilegeEscalation, false, container.name);
        }
      });

      it('selects its pods from the Service, the budget, the policy and the autoscaler, and scrapes the admin port', () => {
        const deployment = one<Deployment>('Deployment');
        const labels = deployment.spec!.template.metadata!.labels;
        const service = one<Service>('Service');
        assert.ok(matches(service.spec!.selector, labels), 'Service');
        assert.ok(matches(one<PodDisruptionBudget>('PodDisruptionBudget').spec!.selector!.matchLabels, labels), 'PodDisruptionBudget');
        assert.ok(matches(one<NetworkPolicy>('NetworkPolicy').spec!.podSelector!.matchLabels, labels), 'NetworkPolicy');
        const target = one<HorizontalPodAutoscaler>('HorizontalPodAutoscaler').spec!.scaleTargetRef;
        assert.deepEqual([target.kind, target.name], ['Deployment', deployment.metadata!.name]);
        const monitor = one<ServiceMonitor>('ServiceMonitor');
        assert.ok(matches(monitor.spec.selector.matchLabels, service.metadata!.labels), 'ServiceMonitor selects the Service');
        const endpoint = monitor.spec.endpoints![0]!;
        const servicePort = service.spec!.ports!.find((port) => port.name === endpoint.port);
        assert.equal(servicePort?.targetPort, 'admin', 'the ServiceMonitor scrapes the admin listener');
        assert.equal(endpoint.path, '/metrics');
        const gateway = deployment.spec!.template.spec!.containers.find((container) => container.name === 'gateway')!;
        const metricsToken = gateway.env!.find((variable: IEnvVar) => variable.name === 'METRICS_TOKEN')?.valueFrom?.secretKeyRef;
        assert.deepEqual(endpoint.authorization?.credentials, { name: metricsToken?.name, key: metricsToken?.key }, 'the scrape uses METRICS_TOKEN');
      });

      it('lets nobody but the monitoring namespace reach the admin listener', () => {
        const policy = one<NetworkPolicy>('NetworkPolicy');
        const admitting = (port: number) => (policy.spec!.ingress ?? []).filter((rule) => !rule.ports || rule.ports.some((candidate) => candidate.port === port));
        assert.ok(admitting(8080).length > 0, 'the public port is admitted');
        for (const rule of admitting(8081)) assert.ok(rule.from?.length && rule.from.every((peer) => peer.namespaceSelector && !peer.ipBlock), 'the admin port only from selected namespaces');
      });
    });
  }
});
