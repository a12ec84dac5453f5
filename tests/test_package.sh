#!/usr/bin/env bash
# The Debian package (CMakeLists.txt, CPack): build it from the build tree,
# unpack it into a scratch root, and use what it installed there: the
# program, a bundled puzzle and rule script (found from the program's own
# place), the man page and the bash completion.
#   tests/test_package.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$build" && cpack -G DEB -B "$tmp/pkg" >"$tmp/cpack.log" 2>&1) ||
  { cat "$tmp/cpack.log" >&2; echo "test_package: cpack failed" >&2; exit 1; }
deb=$(ls "$tmp"/pkg/psolve_*.deb)
root=$tmp/root
dpkg-deb -x "$deb" "$root"
fail() { echo "test_package: $*" >&2; exit 1; }
bin=$root/usr/bin/psolve
[ -x "$bin" ] || fail "no usr/bin/psolve in $deb"
"$bin" --version | grep -q '^psolve ' || fail "psolve --version printed no version"
share=$root/usr/share/psolve
# A bundled puzzle under a rule script that only the installed tree holds.
out=$("$bin" --rules popstar --algo greedy --quiet "$share/puzzles/samegame/examples/samegame-5x5.txt")
grep -q '^# score: ' <<<"$out" || fail "the installed psolve did not solve a bundled puzzle: $out"
"$bin" --game watersort --algo astar --quiet "$share/puzzles/watersort/levels/frozenfrank-115.txt" |
  grep -q '^# status: optimal' || fail "the installed psolve did not solve a bundled level"
# The man page reads, and names every command.
page=$(man -l "$root/usr/share/man/man1/psolve.1" 2>/dev/null) || fail "man -l failed"
for cmd in $("$bin" help bash-completion | sed -n 's/^  local commands="\(.*\)"$/\1/p'); do
  grep -q "^       $cmd" <<<"$page" || fail "the man page lacks command $cmd"
done
# The completion loads and completes an option and an algorithm.
comp=$root/usr/share/bash-completion/completions/psolve
got=$(bash -c "source '$comp'; COMP_WORDS=(psolve --algo nr); COMP_CWORD=2; _psolve; echo \${COMPREPLY[*]}")
[ "$got" = nrpa ] || fail "completion of '--algo nr' gave '$got'"
# Headers and pkg-config for plug-ins.
[ -f "$root/usr/include/psolve/game.h" ] || fail "no usr/include/psolve/game.h"
ls "$root"/usr/lib/*/pkgconfig/psolve.pc >/dev/null 2>&1 ||
  ls "$root"/usr/lib/pkgconfig/psolve.pc >/dev/null 2>&1 || fail "no psolve.pc"
echo "test_package: ok ($(basename "$deb"), $(du -k "$deb" | cut -f1) KiB)"
