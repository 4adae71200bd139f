// Checks the alerting rules against the documentation: every alert is described in
// docs/operations.md, every runbook link points at a heading there, and every Waymesh metric
// an expression uses is one the server exports (docs/metrics.md), so a renamed or misspelt
// metric cannot leave an alert silently evaluating to nothing.

import { readFileSync } from "node:fs";
import { parse } from "yaml";

// GitHub's heading anchors: lower case, punctuation dropped, spaces to dashes.
function anchors(markdown) {
  return new Set(
    [...markdown.matchAll(/^#+\s+(.*)$/gm)].map((m) =>
      m[1].trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, "").replace(/ /g, "-"),
    ),
  );
}

export function alertChecks(rulesPath, operationsPath, metricsPath) {
  const rules = parse(readFileSync(rulesPath, "utf8")).groups.flatMap((g) => g.rules);
  const ops = readFileSync(operationsPath, "utf8");
  const headings = anchors(ops);
  const metricsDoc = readFileSync(metricsPath, "utf8");
  const documented = new Set([...metricsDoc.matchAll(/`((?:grpc_server|waymesh)_\w+)`/g)].map((m) => m[1]));
  const checks = [];
  for (const r of rules.filter((r) => r.alert)) {
    const errors = [];
    if (!ops.includes(r.alert)) errors.push(`not described in ${operationsPath}`);
    const link = r.annotations?.runbook ?? "";
    const anchor = link.split("#")[1];
    if (!anchor || !headings.has(anchor)) errors.push(`runbook ${link || "(none)"} is not a heading of ${operationsPath}`);
    for (const [, metric] of r.expr.matchAll(/\b((?:grpc_server|waymesh)_\w+)/g)) {
      const base = metric.replace(/_(bucket|sum|count)$/, "");
      if (!documented.has(base) && !documented.has(metric)) errors.push(`${metric} is not a metric of docs/metrics.md`);
    }
    checks.push({ name: `alert ${r.alert}: documented, runbook and metrics exist`, errors });
  }
  return checks;
}
