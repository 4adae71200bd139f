// The health service names waymesh-server registers: "" (the whole server) and the full name
// of every service in its API proto ("<package>.<Service>"), read from the proto itself so a
// renamed service cannot leave the probes asking for a name nobody answers.

import { readFileSync } from "node:fs";

export function healthServices(protoPath) {
  const proto = readFileSync(protoPath, "utf8");
  const pkg = proto.match(/^package\s+([\w.]+)\s*;/m)?.[1];
  if (!pkg) throw new Error(`${protoPath}: no package statement`);
  const services = [...proto.matchAll(/^service\s+(\w+)\s*\{/gm)].map((m) => `${pkg}.${m[1]}`);
  if (services.length === 0) throw new Error(`${protoPath}: no service`);
  return ["", ...services];
}
