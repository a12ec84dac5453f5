# Writes OUT (psolve_commit.c: ps_build_commit) with the source tree's
# commit, for --version: run at every build, it rewrites the file only when
# the commit changed, so only it recompiles. Outside a git checkout (a tarball): "unknown".
execute_process(COMMAND git -C "${SRC}" describe --always --dirty --abbrev=12
  OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET
  RESULT_VARIABLE status)
if(NOT status EQUAL 0 OR commit STREQUAL "")
  set(commit "unknown")
endif()
set(text "/* written by cmake/commit.cmake */\nconst char ps_build_commit[] = \"${commit}\";\n")
set(old "")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()
