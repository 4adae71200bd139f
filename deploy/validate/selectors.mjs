// Label selector semantics (matchLabels and matchExpressions), as the API server applies them.

// True when `selector` (a LabelSelector, or a Service's plain map) selects `labels`.
// An empty selector selects everything; a missing one nothing.
export function selects(selector, labels = {}) {
  if (!selector) return false;
  const isLabelSelector = "matchLabels" in selector || "matchExpressions" in selector;
  const matchLabels = isLabelSelector ? (selector.matchLabels ?? {}) : selector;
  for (const [k, v] of Object.entries(matchLabels)) if (labels[k] !== v) return false;
  for (const e of isLabelSelector ? (selector.matchExpressions ?? []) : []) {
    const has = Object.hasOwn(labels, e.key);
    const inValues = has && (e.values ?? []).includes(labels[e.key]);
    const ok = { In: inValues, NotIn: !inValues, Exists: has, DoesNotExist: !has }[e.operator];
    if (!ok) return false;
  }
  return true;
}
