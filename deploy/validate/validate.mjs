// Offline validation of Waymesh's deployment files (run by scripts/test_deploy.sh):
//   node validate.mjs --server-flags server/src/server_flags.cc [--server-help help.txt]
//     --proto proto/waymesh/v1/navigation.proto
//     --dockerfile Dockerfile --rules deploy/monitoring/waymesh-alerts.yaml
//     --operations-doc docs/operations.md --metrics-doc docs/metrics.md
//     [--runtime-packages-out FILE] --bundle NAME=FILE[,FILE...] ...
// A bundle is a set of manifests deployed together (the base files, or an overlay rendered
// by kustomize). Prints one line per check, "PASS <check>" or "FAIL <check>: <why>", and
// exits 1 when any check failed.

import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { parseAllDocuments } from "yaml";
import { alertChecks } from "./alerts.mjs";
import { consistencyChecks } from "./consistency.mjs";
import { dockerfileChecks, parseDockerfile, runtimePackages } from "./dockerfile.mjs";
import { healthServices } from "./health_services.mjs";
import { schemaError } from "./schema.mjs";
import { serverFlags } from "./server_flags.mjs";

const { values: opts } = parseArgs({
  options: {
    "server-flags": { type: "string" },
    "server-help": { type: "string" },
    proto: { type: "string" },
    dockerfile: { type: "string" },
    rules: { type: "string" },
    "operations-doc": { type: "string" },
    "metrics-doc": { type: "string" },
    "runtime-packages-out": { type: "string" },
    bundle: { type: "string", multiple: true, default: [] },
  },
});

let failed = 0;
function report({ name, errors }) {
  if (errors.length === 0) {
    console.log(`PASS ${name}`);
  } else {
    failed++;
    console.log(`FAIL ${name}: ${errors.join("; ")}`);
  }
}
// Runs fn; an exception is a failed check named `name`.
function guarded(name, fn) {
  try {
    return fn();
  } catch (e) {
    report({ name, errors: [e.message] });
    return undefined;
  }
}

const flags = guarded("server flags", () =>
  serverFlags(opts["server-flags"], opts["server-help"] && readFileSync(opts["server-help"], "utf8")),
);
if (!flags) process.exit(1);
const services = guarded("health service names", () => healthServices(opts.proto));
if (!services) process.exit(1);

let imageUser;
if (opts.dockerfile) {
  const stages = parseDockerfile(opts.dockerfile);
  const { checks, user } = dockerfileChecks(stages, flags);
  checks.forEach(report);
  imageUser = user;
  if (opts["runtime-packages-out"]) writeFileSync(opts["runtime-packages-out"], runtimePackages(stages).join("\n") + "\n");
}

if (opts.rules) {
  (guarded("alert rules", () => alertChecks(opts.rules, opts["operations-doc"], opts["metrics-doc"])) ?? []).forEach(report);
}

for (const spec of opts.bundle) {
  const [bundle, fileList] = spec.split("=");
  const objects = [];
  for (const file of fileList.split(",")) {
    const docs = guarded(`${bundle}: ${file} parses`, () => parseAllDocuments(readFileSync(file, "utf8")));
    for (const [i, doc] of (docs ?? []).entries()) {
      if (doc.errors.length) {
        report({ name: `${bundle}: ${file} document ${i + 1} parses`, errors: doc.errors.map((e) => e.message) });
        continue;
      }
      const obj = doc.toJS();
      if (obj === null) continue;
      const what = `${bundle}: ${file}: ${obj.kind ?? "?"} ${obj.metadata?.name ?? "?"}`;
      const error = await schemaError(obj);
      report({ name: `${what} matches the ${obj.apiVersion ?? "?"} schema`, errors: error ? [error] : [] });
      objects.push(obj);
    }
  }
  consistencyChecks(objects, { bundle, flags, imageUser, healthServices: services }).forEach(report);
}
process.exit(failed ? 1 : 0);
