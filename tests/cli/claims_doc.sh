#!/usr/bin/env bash
# docs/claims.md's table is `deskcheck claims --markdown`, verbatim: it cannot drift from the code.
set -euo pipefail
bin=$1
doc=docs/claims.md
table=$(sed -n '/^<!-- claims:begin/,/^<!-- claims:end -->/p' "$doc" | sed '1d;$d')
if ! diff <(printf '%s\n' "$table") <("$bin" claims --markdown); then
    echo "docs/claims.md differs from 'deskcheck claims --markdown' (regenerate the table between the markers)" >&2
    exit 1
fi
echo "docs/claims.md: the table matches deskcheck claims --markdown"
