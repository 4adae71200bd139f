// Checks that a set of manifests deployed together agrees with waymesh-server and with
// itself: flags the server really has, with values of the right type; probe, Service and
// NetworkPolicy ports that are the ports the flags give; a termination grace longer than the
// drain; resources that hold the tile cache; selectors that select the server pods. Each
// check is {name, errors[]}; no errors = passed.

import { durationSeconds, envName, valueError } from "./server_flags.mjs";
import { quantity } from "./quantity.mjs";
import { selects } from "./selectors.mjs";

// The container that runs waymesh-server in a Deployment (the image's entrypoint).
const SERVER_CONTAINER = "waymesh";
// Memory a pod must have besides the tile cache: measured ~20 MiB baseline and ~8 MiB per
// worker, plus headroom for message buffers (--max-message-bytes per call in flight) and
// allocator slack (docs/operations.md, Sizing).
const PROCESS_OVERHEAD_BYTES = 256 * 2 ** 20;
// The shortest startup budget (failureThreshold x periodSeconds) that loading and validating
// large maps on a busy node should get.
const MIN_STARTUP_SECONDS = 120;
// Kubernetes' default when terminationGracePeriodSeconds is not set.
const DEFAULT_TERMINATION_GRACE = 30;

const byKind = (objects, kind) => objects.filter((o) => o.kind === kind);
const named = (objects, kind, name) =>
  objects.find((o) => o.kind === kind && o.metadata?.name === name);

// The flag values a container really runs with: defaults < envFrom ConfigMaps < env < args
// (command line > environment > default, as the server applies them). Records every name or
// value the server would reject in `errors`.
function effectiveFlags(container, objects, flags, errors) {
  const values = new Map([...flags].map(([f, d]) => [f, d.default]));
  const flagOfEnv = new Map([...flags.keys()].map((f) => [envName(f), f]));
  const set = (flag, value, where) => {
    const why = valueError(flags.get(flag).type, value);
    if (why) errors.push(`${where}: ${why}`);
    else values.set(flag, String(value));
  };
  const setEnv = (name, value, where) => {
    if (!name.startsWith("WAYMESH_")) return false;
    if (!flagOfEnv.has(name)) {
      errors.push(`${where}: ${name} is not a waymesh-server flag (the server would ignore it)`);
    } else if (value !== undefined) {
      set(flagOfEnv.get(name), value, `${where} ${name}`);
    }
    return true;
  };
  for (const source of container.envFrom ?? []) {
    const ref = source.configMapRef?.name;
    if (!ref) continue;
    const cm = named(objects, "ConfigMap", ref);
    if (!cm) {
      errors.push(`envFrom ConfigMap ${ref} is not defined`);
      continue;
    }
    for (const [key, value] of Object.entries(cm.data ?? {})) {
      if (!setEnv(key, value, `ConfigMap ${ref}`)) {
        errors.push(`ConfigMap ${ref}: ${key} is not a WAYMESH_* flag variable`);
      }
    }
  }
  for (const env of container.env ?? []) {
    let value = env.value;
    const field = env.valueFrom?.resourceFieldRef;
    if (field) {
      // The kubelet rounds the resource up to whole divisors.
      const target = (container.resources ?? {})[field.resource.split(".")[0]] ?? {};
      const amount = quantity(target[field.resource.split(".")[1]]);
      value = String(Math.ceil(amount / quantity(field.divisor ?? "1")));
    }
    const keyRef = env.valueFrom?.configMapKeyRef;
    if (keyRef) value = named(objects, "ConfigMap", keyRef.name)?.data?.[keyRef.key];
    setEnv(env.name, value, `env`);
  }
  for (const arg of [...(container.command ?? []).slice(1), ...(container.args ?? [])]) {
    const m = String(arg).match(/^--?([A-Za-z0-9_-]+)(?:=(.*))?$/);
    const flag = m?.[1].replaceAll("-", "_");
    if (!m || !flags.has(flag)) {
      errors.push(`argument ${arg} is not a waymesh-server flag`);
    } else {
      set(flag, m[2] ?? "true", `argument ${arg}`);
    }
  }
  return values;
}

// The container port a probe, Service or policy port (number or name) refers to, or undefined.
function resolvePort(container, port) {
  const ports = container.ports ?? [];
  const p = typeof port === "string" ? ports.find((c) => c.name === port) : ports.find((c) => c.containerPort === port);
  return p?.containerPort;
}

function preStopSeconds(container) {
  const pre = container.lifecycle?.preStop;
  if (pre?.sleep) return Number(pre.sleep.seconds);
  const cmd = pre?.exec?.command ?? [];
  const i = cmd.findIndex((c) => /(^|\/)sleep$/.test(c));
  return i >= 0 ? Number(cmd[i + 1]) : 0;
}

function checkDeployment(d, objects, ctx) {
  const name = `Deployment ${d.metadata.name}`;
  const checks = [];
  const check = (what, fn) => {
    const errors = [];
    fn(errors);
    checks.push({ name: `${ctx.bundle}: ${name}: ${what}`, errors });
  };
  const pod = d.spec?.template?.spec ?? {};
  const podLabels = d.spec?.template?.metadata?.labels ?? {};
  const server = (pod.containers ?? []).find((c) => c.name === SERVER_CONTAINER);
  if (!server) {
    check("server container", (e) => e.push(`no container named ${SERVER_CONTAINER}`));
    return checks;
  }
  let flags;
  check("flags are waymesh-server's, with valid values", (e) => {
    flags = effectiveFlags(server, objects, ctx.flags, e);
  });
  const grpcPort = Number(flags.get("port"));
  const metricsPort = Number(flags.get("metrics_port"));
  const healthPort = Number(flags.get("health_port") ?? -1);
  const tls = (flags.get("tls_cert") ?? "") !== "";
  // Ports a kubelet gRPC probe (plaintext only) can get an answer on.
  const probePorts = [...(healthPort > 0 ? [healthPort] : []), ...(tls ? [] : [grpcPort])];

  check("selector selects its own pods", (e) => {
    if (!selects(d.spec?.selector, podLabels)) e.push("spec.selector does not match the template labels");
  });

  check(`container ports match --port=${grpcPort} and --metrics-port=${metricsPort}`, (e) => {
    if (resolvePort(server, "grpc") !== grpcPort) e.push(`port "grpc" is ${resolvePort(server, "grpc")}, the server listens on ${grpcPort}`);
    if (metricsPort <= 0) e.push("metrics are disabled or on a random port; nothing could scrape them");
    else if (resolvePort(server, "metrics") !== metricsPort) e.push(`port "metrics" is ${resolvePort(server, "metrics")}, the server serves metrics on ${metricsPort}`);
    if (healthPort > 0 && resolvePort(server, "health") !== healthPort) e.push(`port "health" is ${resolvePort(server, "health")}, the server serves plaintext health on ${healthPort}`);
  });

  check("probes target the server's health endpoints", (e) => {
    for (const kind of ["startupProbe", "readinessProbe", "livenessProbe"]) {
      const probe = server[kind];
      if (!probe) {
        e.push(`no ${kind}`);
        continue;
      }
      if (probe.grpc) {
        if (probePorts.length === 0) e.push(`${kind}: TLS is on (--tls-cert) and gRPC probes speak plaintext only: set --health-port and probe it`);
        else if (!probePorts.includes(probe.grpc.port)) e.push(`${kind}: gRPC probe on port ${probe.grpc.port}, the server answers plaintext health on ${probePorts.join(" or ")}${tls ? " (the API port uses TLS)" : ""}`);
        if (!ctx.healthServices.includes(probe.grpc.service ?? "")) e.push(`${kind}: health service "${probe.grpc.service}" is not registered by the server (it answers ${ctx.healthServices.map((s) => `"${s}"`).join(", ")})`);
      } else if (probe.httpGet) {
        const port = resolvePort(server, probe.httpGet.port) ?? probe.httpGet.port;
        if (port !== metricsPort || probe.httpGet.path !== "/healthz") e.push(`${kind}: HTTP probes must be GET /healthz on the metrics port ${metricsPort}`);
      } else {
        e.push(`${kind}: use a grpc (or httpGet /healthz) probe; tcp/exec probes do not see the serving status`);
      }
    }
    const s = server.startupProbe;
    if (s) {
      const budget = (s.failureThreshold ?? 3) * (s.periodSeconds ?? 10);
      if (budget < MIN_STARTUP_SECONDS) e.push(`startupProbe allows ${budget} s for map loading, want >= ${MIN_STARTUP_SECONDS} s`);
    }
  });

  check("termination grace covers preStop and --shutdown-grace", (e) => {
    const grace = pod.terminationGracePeriodSeconds ?? DEFAULT_TERMINATION_GRACE;
    const drain = durationSeconds(flags.get("shutdown_grace"));
    const pause = preStopSeconds(server);
    if (!(grace > pause + drain)) e.push(`terminationGracePeriodSeconds ${grace} <= preStop ${pause} s + --shutdown-grace ${drain} s: in-flight calls would be killed`);
  });

  check("runs as non-root with a read-only root filesystem", (e) => {
    for (const c of [...(pod.initContainers ?? []), ...(pod.containers ?? [])]) {
      const sc = { ...(pod.securityContext ?? {}), ...(c.securityContext ?? {}) };
      if (sc.runAsNonRoot !== true) e.push(`${c.name}: runAsNonRoot is not true`);
      if (sc.runAsUser === 0) e.push(`${c.name}: runAsUser 0`);
      if (c.securityContext?.readOnlyRootFilesystem !== true) e.push(`${c.name}: readOnlyRootFilesystem is not true`);
      if (c.securityContext?.allowPrivilegeEscalation !== false) e.push(`${c.name}: allowPrivilegeEscalation is not false`);
    }
    const uid = server.securityContext?.runAsUser ?? pod.securityContext?.runAsUser;
    if (ctx.imageUser !== undefined && uid !== ctx.imageUser) e.push(`runAsUser ${uid} differs from the image's USER ${ctx.imageUser}`);
  });

  check("resources hold the tile cache and match the workers", (e) => {
    for (const c of [...(pod.initContainers ?? []), ...(pod.containers ?? [])]) {
      for (const kind of ["requests", "limits"]) {
        for (const r of ["cpu", "memory"]) {
          if (Number.isNaN(quantity(c.resources?.[kind]?.[r]))) e.push(`${c.name}: no ${kind}.${r}`);
        }
      }
    }
    const limit = quantity(server.resources?.limits?.memory);
    const cache = Number(flags.get("tile_cache_bytes"));
    if (cache + PROCESS_OVERHEAD_BYTES > limit) e.push(`--tile-cache-bytes ${cache} + ${PROCESS_OVERHEAD_BYTES} B overhead exceed the memory limit ${server.resources?.limits?.memory}`);
    const workers = Number(flags.get("workers"));
    const cpus = Math.ceil(quantity(server.resources?.limits?.cpu));
    // --workers=0 is fine: the server counts the CPUs of its cgroup quota, not the node's cores.
    if (workers > cpus) e.push(`--workers=${workers} exceeds the CPU limit ${cpus}`);
  });

  check("maps directory is a mounted volume", (e) => {
    const dir = flags.get("maps_dir");
    if (!dir) e.push("--maps-dir is not set");
    else if (!(server.volumeMounts ?? []).some((m) => m.mountPath === dir)) e.push(`--maps-dir ${dir} is not a volumeMount of ${SERVER_CONTAINER}`);
  });

  // The server serves private copies of the maps from --spool-dir: with a read-only root file
  // system that must be a writable volume, and on disk (a memory-backed one costs RAM per map).
  check("spool directory is a writable disk volume", (e) => {
    const dir = flags.get("spool_dir");
    const mount = (server.volumeMounts ?? []).find((m) => m.mountPath === dir);
    if (!dir) e.push("--spool-dir is not set");
    else if (!mount) e.push(`--spool-dir ${dir} is not a volumeMount of ${SERVER_CONTAINER}`);
    else if (mount.readOnly) e.push(`--spool-dir ${dir} is mounted read-only`);
    else {
      const volume = (pod.volumes ?? []).find((v) => v.name === mount.name);
      if (volume?.emptyDir?.medium === "Memory") e.push(`--spool-dir ${dir} is a memory-backed emptyDir`);
    }
  });

  check("Services reach the server's ports", (e) => {
    const services = byKind(objects, "Service").filter((s) => selects(s.spec?.selector, podLabels));
    const exposed = new Set();
    for (const s of services) {
      for (const p of s.spec.ports ?? []) {
        const target = resolvePort(server, p.targetPort ?? p.port);
        if (target === undefined) e.push(`Service ${s.metadata.name} port ${p.name ?? p.port}: targetPort ${p.targetPort} is not a container port`);
        else exposed.add(target);
        // Headless: clients dial pod IPs, so the Service port itself must be the container port.
        if (s.spec.clusterIP === "None" && p.port !== target) e.push(`headless Service ${s.metadata.name}: port ${p.port} is not the container port ${target}`);
      }
      if (s.spec.clusterIP === "None" && durationSeconds(flags.get("max_connection_age")) === 0) e.push(`headless Service ${s.metadata.name} but --max-connection-age=0: round_robin clients never rebalance onto new pods`);
    }
    if (!exposed.has(grpcPort)) e.push(`no Service exposes the gRPC port ${grpcPort}`);
    if (!exposed.has(metricsPort)) e.push(`no Service exposes the metrics port ${metricsPort}`);
  });

  check("HPA, PodDisruptionBudget and NetworkPolicy apply to it", (e) => {
    const hpa = byKind(objects, "HorizontalPodAutoscaler").find((h) => h.spec?.scaleTargetRef?.kind === "Deployment" && h.spec.scaleTargetRef.name === d.metadata.name);
    if (!hpa) e.push("no HorizontalPodAutoscaler targets it");
    else if ((hpa.spec.minReplicas ?? 1) < 2) e.push(`HPA ${hpa.metadata.name}: minReplicas < 2 leaves no pod during a disruption`);
    if (!byKind(objects, "PodDisruptionBudget").some((p) => selects(p.spec?.selector, podLabels))) e.push("no PodDisruptionBudget selects its pods");
    const policies = byKind(objects, "NetworkPolicy").filter((n) => selects(n.spec?.podSelector, podLabels));
    if (policies.length === 0) e.push("no NetworkPolicy selects its pods");
    const allowed = new Set();
    for (const n of policies) {
      for (const rule of n.spec.ingress ?? []) {
        for (const p of rule.ports ?? []) {
          const port = resolvePort(server, p.port);
          if (port === undefined) e.push(`NetworkPolicy ${n.metadata.name}: ingress port ${p.port} is not a port of the server`);
          else allowed.add(port);
        }
      }
    }
    for (const port of [grpcPort, metricsPort]) {
      if (policies.length && !allowed.has(port)) e.push(`NetworkPolicy allows no ingress to port ${port}`);
    }
  });
  return checks;
}

// Checks every Deployment of `objects` (one bundle, deployed together), the Services and
// ServiceMonitors, and object identity. ctx: {bundle, flags, imageUser}.
export function consistencyChecks(objects, ctx) {
  const checks = [];
  const deployments = byKind(objects, "Deployment");
  if (deployments.length === 0) checks.push({ name: `${ctx.bundle}: has a Deployment`, errors: ["no Deployment"] });
  for (const d of deployments) checks.push(...checkDeployment(d, objects, ctx));

  const ids = new Map();
  const dup = [];
  for (const o of objects) {
    const id = `${o.kind}/${o.metadata?.namespace ?? ""}/${o.metadata?.name}`;
    if (ids.has(id)) dup.push(id);
    ids.set(id, true);
  }
  checks.push({ name: `${ctx.bundle}: object names are unique`, errors: dup.map((id) => `${id} defined twice`) });

  const mixed = [];
  for (const s of byKind(objects, "Service")) {
    const owners = deployments.filter((d) => selects(s.spec?.selector, d.spec?.template?.metadata?.labels));
    if (owners.length > 1) mixed.push(`Service ${s.metadata.name} selects the pods of ${owners.map((d) => d.metadata.name).join(" and ")} (shards would mix maps)`);
  }
  checks.push({ name: `${ctx.bundle}: each Service selects one Deployment's pods`, errors: mixed });

  for (const m of byKind(objects, "ServiceMonitor")) {
    const errors = [];
    const services = byKind(objects, "Service").filter((s) => selects(m.spec?.selector, s.metadata?.labels));
    if (services.length === 0) errors.push("selects no Service");
    for (const ep of m.spec?.endpoints ?? []) {
      if (!services.every((s) => (s.spec.ports ?? []).some((p) => p.name === ep.port))) errors.push(`endpoint port ${ep.port} is not a port of every selected Service`);
      if ((ep.path ?? "/metrics") !== "/metrics") errors.push(`endpoint path ${ep.path}: the server serves /metrics`);
    }
    checks.push({ name: `${ctx.bundle}: ServiceMonitor ${m.metadata.name} scrapes the metrics Services`, errors });
  }
  return checks;
}
