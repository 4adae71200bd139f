// What waymesh-server accepts: flag names, types and defaults. Types come from the ABSL_FLAG
// definitions in server/src/server_flags.cc; names and defaults from the built binary's
// --help when one is given (what will really run), else from the same source file.

import { readFileSync } from "node:fs";

const ENV_PREFIX = "WAYMESH_";

// "maps_dir" -> "WAYMESH_MAPS_DIR" (server/include/waymesh/server/flag_environment.h).
export function envName(flag) {
  return ENV_PREFIX + flag.toUpperCase();
}

// Evaluates the C++ default expressions used in server_flags.cc (literals, T{n}, a << b,
// absl::Seconds(n), absl::ZeroDuration()) to the string abseil's --help would print.
function evalDefault(expr, type) {
  const e = expr.trim();
  if (/^"/.test(e)) return JSON.parse(e);
  if (type === "absl::Duration") {
    if (/^absl::ZeroDuration\(\)$/.test(e)) return "0";
    const m = e.match(/^absl::(Milliseconds|Seconds|Minutes|Hours)\((\d+)\)$/);
    if (!m) throw new Error(`cannot evaluate duration default ${e}`);
    return m[2] + { Milliseconds: "ms", Seconds: "s", Minutes: "m", Hours: "h" }[m[1]];
  }
  if (e === "true" || e === "false") return e;
  const int = (s) => {
    const t = s.trim().replace(/^[\w:]+\{(.+)\}$/, "$1");
    if (!/^-?\d+$/.test(t)) throw new Error(`cannot evaluate default ${e}`);
    return BigInt(t);
  };
  const shift = e.match(/^(.+?)<<(.+)$/);
  return String(shift ? int(shift[1]) << int(shift[2]) : int(e));
}

// Parses server_flags.cc: Map flag -> {type, default}.
export function flagsFromSource(path) {
  const src = readFileSync(path, "utf8");
  const flags = new Map();
  const re = /ABSL_FLAG\(\s*([\w:]+)\s*,\s*(\w+)\s*,\s*((?:"(?:[^"\\]|\\.)*")|[^,]+?)\s*,/g;
  for (const m of src.matchAll(re)) {
    flags.set(m[2], { type: m[1], default: evalDefault(m[3], m[1]) });
  }
  if (flags.size === 0) throw new Error(`${path}: no ABSL_FLAG definitions found`);
  return flags;
}

// Parses `waymesh-server --help`: Map flag -> default (as printed).
export function flagsFromHelp(text) {
  const flags = new Map();
  const re = /^ {2}--([a-z0-9-]+) {2}\(env (\w+), default (.*)\)$/gm;
  for (const m of text.matchAll(re)) {
    const flag = m[1].replaceAll("-", "_");
    if (m[2] !== envName(flag)) throw new Error(`--help: ${m[1]} has env ${m[2]}`);
    flags.set(flag, m[3] === '""' ? "" : m[3]);
  }
  if (flags.size === 0) throw new Error("--help lists no flags");
  return flags;
}

// abseil's duration syntax ("10s", "1.5m", "1h30m", "250ms", "0", "inf") in seconds, or NaN.
export function durationSeconds(text) {
  const s = String(text).trim();
  if (s === "0") return 0;
  if (s === "inf") return Infinity;
  const units = { ns: 1e-9, us: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 };
  const parts = [...s.matchAll(/(\d+(?:\.\d+)?)(ns|us|ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join("") !== s) return NaN;
  return parts.reduce((sum, p) => sum + Number(p[1]) * units[p[2]], 0);
}

// Null when `value` parses as a flag of C++ type `type`, else why not.
export function valueError(type, value) {
  const v = String(value);
  const ok = {
    int: () => /^-?\d+$/.test(v) && Math.abs(Number(v)) < 2 ** 31,
    uint32_t: () => /^\d+$/.test(v) && Number(v) < 2 ** 32,
    uint64_t: () => /^\d+$/.test(v) && BigInt(v) < 2n ** 64n,
    bool: () => /^(true|false|1|0)$/.test(v),
    "std::string": () => true,
    "absl::Duration": () => !Number.isNaN(durationSeconds(v)),
  }[type];
  if (!ok) return `unknown flag type ${type}`;
  return ok() ? null : `"${v}" is not a valid ${type}`;
}

// The server's flags: Map flag -> {type, default}. `helpText` (optional) overrides the
// defaults and must list exactly the flags of the source, or the binary is stale.
export function serverFlags(sourcePath, helpText) {
  const flags = flagsFromSource(sourcePath);
  if (helpText === undefined) return flags;
  const help = flagsFromHelp(helpText);
  const onlySource = [...flags.keys()].filter((f) => !help.has(f));
  const onlyHelp = [...help.keys()].filter((f) => !flags.has(f));
  if (onlySource.length || onlyHelp.length) {
    throw new Error(
      `waymesh-server --help and ${sourcePath} disagree (only in source: ${onlySource.join(", ") || "-"};` +
        ` only in --help: ${onlyHelp.join(", ") || "-"}); rebuild the server`,
    );
  }
  for (const [flag, def] of help) flags.get(flag).default = def;
  return flags;
}
