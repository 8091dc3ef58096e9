#!/usr/bin/env bash
# docs/errors.md's tables are the bad-input catalogue programs' own rows
# (tests/mpi/bad_input_*.c, printed with --markdown), so the document cannot drift from
# what the tests check.
#   scripts/errors_doc.sh --write build/tests/bad_input_*   regenerate docs/errors.md
#   scripts/errors_doc.sh --check PROGRAM...                 fail if it is out of date (test errors_doc)
set -euo pipefail
doc=$(cd "$(dirname "$0")/.." && pwd)/docs/errors.md
mode=$1
shift
[ $# -gt 0 ] || { echo "errors_doc: no catalogue programs given" >&2; exit 1; }
marker='<!-- Generated below by scripts/errors_doc.sh from the catalogue programs: do not edit by hand. -->'
[ -f "$doc" ] && grep -qxF "$marker" "$doc" || { echo "errors_doc: $doc lacks the marker line" >&2; exit 1; }
generated=$(mktemp)
trap 'rm -f "$generated"' EXIT
# Alphabetical by program, whatever order the caller (a glob, meson) gives them in; a
# glob's build-tree directories (bad_input_x.p/) are skipped.
count=0
for prog in $(printf '%s\n' "$@" | sort); do
  [ -f "$prog" ] && [ -x "$prog" ] || continue
  "$prog" --markdown >> "$generated"
  count=$((count + 1))
done
rows=$(grep -c '^| `' "$generated" || true)
{ sed "/^$(printf '%s' "$marker" | sed 's/[][\/.*^$]/\\&/g')\$/q" "$doc"; echo; echo "$rows rows."; echo; cat "$generated"; } > "$generated.doc"
if [ "$mode" = --write ]; then
  mv "$generated.doc" "$doc"
  echo "errors_doc: wrote $doc ($rows rows)"
elif diff -u "$doc" "$generated.doc"; then
  rm -f "$generated.doc"
  echo "errors_doc: $doc lists the $rows rows of $count programs"
else
  rm -f "$generated.doc"
  echo "errors_doc: $doc is out of date; run scripts/errors_doc.sh --write <build>/tests/bad_input_*" >&2
  exit 1
fi
