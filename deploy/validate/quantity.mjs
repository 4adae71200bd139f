// Kubernetes resource quantities ("500m", "2", "1Gi", "536870912") as numbers.

const SUFFIXES = {
  m: 1e-3, "": 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12,
  Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40,
};

// The quantity's value (cores for CPU, bytes for memory), or NaN when it does not parse.
export function quantity(q) {
  const m = String(q ?? "").match(/^(\d+(?:\.\d+)?)(m|k|M|G|T|Ki|Mi|Gi|Ti)?$/);
  return m ? Number(m[1]) * SUFFIXES[m[2] ?? ""] : NaN;
}
