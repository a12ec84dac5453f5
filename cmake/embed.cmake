# cmake -DIN=file -DOUT=file.c -DNAME=symbol -P embed.cmake
# Turns a text file (the HTML report's template) into a C array, so the
# template stays a readable source file and psolve needs no file at run time.
# A byte array, not a string literal: C11 promises only 4095 characters of
# literal, and -Wpedantic says so.
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" hexlen)
math(EXPR len "${hexlen} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
file(WRITE "${OUT}"
  "/* Generated from ${IN} by cmake/embed.cmake: do not edit. */\n"
  "#include <stddef.h>\n"
  "const unsigned char ${NAME}[] = {\n${bytes}0x00};\n"
  "const size_t ${NAME}_len = ${len};\n")
