// Schema validation of one Kubernetes object with the kubernetes-models package: types,
// enums, formats and required fields of the object's apiVersion/kind (the Kubernetes OpenAPI
// schema; Prometheus Operator CRDs from @kubernetes-models/prometheus-operator). It does not
// reject unknown fields; the consistency checks cover the fields Waymesh depends on.

// API groups whose models live outside kubernetes-models.
const CRD_PACKAGES = {
  "monitoring.coreos.com": "@kubernetes-models/prometheus-operator",
};

// Resolves the model class of `apiVersion`/`kind`, or throws when there is none.
async function modelFor(apiVersion, kind) {
  const group = apiVersion.includes("/") ? apiVersion.split("/")[0] : "";
  const pkg = CRD_PACKAGES[group] ?? "kubernetes-models";
  let module;
  try {
    module = await import(`${pkg}/${apiVersion}`);
  } catch {
    throw new Error(`no schema for apiVersion ${apiVersion}`);
  }
  const Model = module[kind];
  if (typeof Model !== "function") throw new Error(`no schema for ${apiVersion} ${kind}`);
  return Model;
}

// Returns null when `obj` is valid, else a message naming the first offending field.
export async function schemaError(obj) {
  if (!obj || typeof obj.apiVersion !== "string" || typeof obj.kind !== "string") {
    return "not a Kubernetes object (apiVersion and kind required)";
  }
  try {
    const Model = await modelFor(obj.apiVersion, obj.kind);
    new Model(obj).validate();
    return null;
  } catch (e) {
    return e.message.split("\n")[0];
  }
}
