#!/usr/bin/env bash
# Electronegativity (the Electron security checklist, automated) over src/, or the folder given.
# The tool exits 0 whatever it finds, so this reads its CSV report and fails on any finding above
# INFORMATIONAL, printing each.
# Accepted informational findings are listed in docs/electron.md ("Electronegativity").
set -euo pipefail
input="${1:-src}"
cd "$(dirname "$0")/.."

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The scan cannot find the Electron version in src/; it would assume 0.1.0 and judge by that.
version="$(node -p "require('./node_modules/electron/package.json').version")"

if ! NODE_OPTIONS="--require $PWD/.ci/electronegativity-offline.cjs" \
  npx --no-install electronegativity -i "$input" -o "$work/report.csv" -r -v false -e "$version" \
  >"$work/log.txt" 2>&1; then
  cat "$work/log.txt"
  echo "electronegativity: the scan itself failed" >&2
  exit 1
fi
if [ ! -s "$work/report.csv" ]; then
  cat "$work/log.txt"
  echo "electronegativity: no report was written" >&2
  exit 1
fi

node - "$work/report.csv" "$input" <<'NODE'
const { readFileSync } = require('node:fs');

/** RFC 4180 rows: quoted fields may hold commas, quotes ("") and line breaks. */
function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field.trim());
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i += 1;
      row.push(field.trim());
      if (row.some((value) => value !== '')) rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  row.push(field.trim());
  if (row.some((value) => value !== '')) rows.push(row);
  return rows;
}

const [header, ...rows] = parseCsv(readFileSync(process.argv[2], 'utf8'));
const column = (name) => header.findIndex((h) => h.toLowerCase() === name);
const at = { issue: column('issue'), severity: column('severity'), file: column('filename'), where: column('location'), description: column('description'), sample: column('sample') };
if (Object.values(at).some((index) => index < 0)) {
  console.error(`electronegativity: unexpected report columns: ${header.join(', ')}`);
  process.exit(1);
}
const findings = rows.map((row) => ({
  issue: row[at.issue],
  severity: (row[at.severity] ?? '').toUpperCase(),
  where: `${row[at.file]}:${row[at.where]}`,
  description: row[at.description],
  sample: row[at.sample],
}));
const blocking = findings.filter((finding) => finding.severity !== 'INFORMATIONAL');
for (const finding of findings) {
  const line = `${finding.severity} ${finding.issue} at ${finding.where}: ${finding.description}`;
  if (blocking.includes(finding)) console.error(`${line}\n    ${finding.sample}`);
  else console.log(`accepted (informational): ${line}`);
}
if (blocking.length > 0) {
  console.error(`electronegativity: ${blocking.length} finding(s) above INFORMATIONAL`);
  process.exit(1);
}
console.log(`electronegativity: ${process.argv[3]} is clean (${findings.length} informational finding(s))`);
NODE
