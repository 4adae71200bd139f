#!/usr/bin/env bash
# Checks that tests/data/unity_export_fixture.json is byte for byte what the exporter writes:
# compiles the exporter's Unity-independent files (document, writer, hash) with Mono's mcs and
# rebuilds the fixture. Needs `apt-get install mono-mcs mono-runtime`; not part of CI (the
# C++ suite checks the keys, see tests/tools/unity_exporter_test.cc). Exit 0 when identical.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
fixture="$repo/tests/data/unity_export_fixture.json"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
editor="$here/../Editor"
mcs -nologo -out:"$work/check.exe" "$here/FixtureCheck.cs" "$editor/ExportFormat.cs" \
  "$editor/AgentRecord.cs" "$editor/AreaRecord.cs" "$editor/LinkRecord.cs" \
  "$editor/ExportDocument.cs" "$editor/ExportException.cs" "$editor/JsonText.cs" \
  "$editor/ContentHash.cs" "$editor/ExportJsonWriter.cs"
mono "$work/check.exe" "$fixture" >"$work/written.json"
if [[ "${1:-}" == "--update" ]]; then cp "$work/written.json" "$fixture"; echo "updated $fixture"; exit 0; fi
diff -u "$fixture" "$work/written.json" && echo "fixture matches the exporter's output"
