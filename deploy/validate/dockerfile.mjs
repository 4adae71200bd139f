// Reads the Dockerfile's stages and checks the image against the server's defaults: built on
// debian:bookworm with scripts/deps.sh (what CI runs), a runtime stage that runs
// waymesh-server as a fixed non-root uid, exposes the gRPC and metrics ports and installs no
// build tools.

import { readFileSync } from "node:fs";

// Stages: [{from, name, instructions: [{op, args}]}], with line continuations joined.
export function parseDockerfile(path) {
  const text = readFileSync(path, "utf8").replace(/\\\n/g, " ");
  const stages = [];
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const [, op, args] = line.match(/^(\w+)\s+(.*)$/) ?? [];
    if (!op) continue;
    if (op.toUpperCase() === "FROM") {
      const [from, , name] = args.split(/\s+/);
      stages.push({ from, name, instructions: [] });
    } else if (stages.length) {
      stages.at(-1).instructions.push({ op: op.toUpperCase(), args });
    }
  }
  return stages;
}

// Packages the runtime stage installs with apt-get.
export function runtimePackages(stages) {
  const runtime = stages.at(-1);
  const pkgs = [];
  for (const i of runtime?.instructions ?? []) {
    if (i.op !== "RUN") continue;
    for (const cmd of i.args.split(/&&|;/)) {
      const m = cmd.match(/apt-get\s+install\s+(.*)$/);
      if (m) pkgs.push(...m[1].split(/\s+/).filter((w) => w && !w.startsWith("-")));
    }
  }
  return pkgs;
}

// {checks, user}: `user` is the runtime stage's numeric USER (for runAsUser).
export function dockerfileChecks(stages, flags) {
  const checks = [];
  const check = (name, fn) => {
    const errors = [];
    fn(errors);
    checks.push({ name: `Dockerfile: ${name}`, errors });
  };
  const build = stages[0];
  const runtime = stages.at(-1);
  const all = (stage, op) => (stage?.instructions ?? []).filter((i) => i.op === op);
  check("build stage is debian:bookworm running scripts/deps.sh", (e) => {
    if (stages.length < 2) e.push("not a multi-stage build");
    if (build?.from !== "debian:bookworm") e.push(`build stage FROM ${build?.from}`);
    if (!all(build, "RUN").some((r) => /scripts\/deps\.sh/.test(r.args))) e.push("build stage does not run scripts/deps.sh");
  });
  let user;
  check("runtime stage runs waymesh-server as a non-root uid", (e) => {
    if (!/^debian:bookworm(-slim)?$/.test(runtime?.from ?? "")) e.push(`runtime stage FROM ${runtime?.from}`);
    const u = all(runtime, "USER").at(-1)?.args.split(":")[0];
    if (!/^\d+$/.test(u ?? "")) e.push(`USER ${u}: use a numeric uid so runAsNonRoot can verify it`);
    else if (Number(u) === 0) e.push("USER 0 is root");
    else user = Number(u);
    if (!/waymesh-server/.test(all(runtime, "ENTRYPOINT").at(-1)?.args ?? "")) e.push("ENTRYPOINT is not waymesh-server");
  });
  check("runtime stage exposes the gRPC and metrics ports and takes maps from a volume", (e) => {
    const env = {};
    for (const i of all(runtime, "ENV")) for (const m of i.args.matchAll(/(\w+)=(\S+)/g)) env[m[1]] = m[2];
    const port = env.WAYMESH_PORT ?? flags.get("port").default;
    const metrics = env.WAYMESH_METRICS_PORT ?? flags.get("metrics_port").default;
    const exposed = all(runtime, "EXPOSE").flatMap((i) => i.args.split(/\s+/).map((p) => p.split("/")[0]));
    for (const p of [port, metrics]) if (!exposed.includes(String(p))) e.push(`port ${p} is not EXPOSEd`);
    const mapsDir = env.WAYMESH_MAPS_DIR;
    if (!mapsDir) e.push("WAYMESH_MAPS_DIR is not set");
    else if (!all(runtime, "VOLUME").some((v) => v.args.includes(mapsDir))) e.push(`WAYMESH_MAPS_DIR ${mapsDir} is not a VOLUME`);
  });
  check("runtime stage installs runtime libraries only", (e) => {
    const pkgs = runtimePackages(stages);
    if (pkgs.length === 0) e.push("installs no packages (the binaries need gRPC, protobuf, abseil)");
    for (const p of pkgs) {
      if (/-dev$|^(build-essential|cmake|ninja-build|gcc|g\+\+|clang.*|git)$/.test(p)) e.push(`${p} is a build tool`);
    }
  });
  return { checks, user };
}
