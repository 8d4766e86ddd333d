# Writes a command's man page and bash completion from its own --help, so
# neither repeats the option tables (they live in the sources: llvm::cl
# options in analyzer/driver/Main.cpp, the usage text of distlint-rt).
#   cmake -DEXE=<binary> -DNAME=<command> -DSUMMARY=<one line> -DVERSION=<v>
#         -DMAN=<out.1> -DCOMPLETION=<out> -P CommandDocs.cmake
foreach(var EXE NAME SUMMARY VERSION MAN COMPLETION)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "CommandDocs.cmake: -D${var}= is required")
  endif()
endforeach()

execute_process(COMMAND ${EXE} --help OUTPUT_VARIABLE help ERROR_VARIABLE help_err
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR help STREQUAL "")
  message(FATAL_ERROR "${EXE} --help failed (${rc}): ${help_err}")
endif()

# roff: a leading '.' or '\'' would be a request, '\' an escape, and '-'
# must be \- to stay a minus sign people can search for and paste.
function(roff_escape text out)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REPLACE "-" "\\-" text "${text}")
  string(REGEX REPLACE "^([.'])" "\\\\&\\1" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

string(REPLACE ";" "\\;" help "${help}")
string(REPLACE "\n" ";" lines "${help}")
set(options "")
set(body "")
set(in_item FALSE)
set(has_subcommands FALSE)
set(in_synopsis FALSE)
foreach(line IN LISTS lines)
  # An option line: indented, a dash, the option, then its description
  # after " - " (llvm::cl) or on the following, deeper lines.
  if(line MATCHES "^  +-" AND NOT line MATCHES "^      ")
    string(STRIP "${line}" item)
    string(FIND "${item}" " - " dash)
    if(dash GREATER 0)
      string(SUBSTRING "${item}" 0 ${dash} opt)
      math(EXPR rest "${dash} + 3")
      string(SUBSTRING "${item}" ${rest} -1 desc)
      string(STRIP "${opt}" opt)
      string(STRIP "${desc}" desc)
    else()
      set(opt "${item}")
      set(desc "")
    endif()
    string(REGEX MATCHALL "(^|[ ,])--?[A-Za-z][-A-Za-z0-9]*" names "${opt}")
    foreach(n IN LISTS names)
      string(REGEX REPLACE "^[ ,]" "" n "${n}")
      list(APPEND options "${n}")
    endforeach()
    roff_escape("${opt}" opt)
    roff_escape("${desc}" desc)
    string(APPEND body ".TP\n.B ${opt}\n${desc}\n")
    set(in_item TRUE)
    set(in_synopsis FALSE)
  elseif(line MATCHES "^  (distlint[-a-z]*) +([a-z]+)(.*)$")
    # distlint-rt's sub-command synopsis lines: "  distlint-rt run ..."
    list(APPEND options "${CMAKE_MATCH_2}")
    set(has_subcommands TRUE)
    set(in_synopsis TRUE)
    string(REGEX MATCHALL "--?[A-Za-z][-A-Za-z0-9]*" names "${CMAKE_MATCH_3}")
    list(APPEND options ${names})
    roff_escape("${line}" l)
    string(STRIP "${l}" l)
    string(APPEND body ".TP\n.B ${l}\n")
    set(in_item TRUE)
  elseif(line MATCHES "^ +(.*)$" AND in_item)
    set(text "${CMAKE_MATCH_1}")
    if(in_synopsis AND text MATCHES "^\\[")
      # The synopsis goes on: "[--max-time S] [--log-dir DIR]".
      string(REGEX MATCHALL "--?[A-Za-z][-A-Za-z0-9]*" names "${text}")
      list(APPEND options ${names})
    endif()
    roff_escape("${text}" cont)
    string(APPEND body "${cont}\n")
  elseif(line MATCHES "^[A-Za-z].*:$")
    roff_escape("${line}" l)
    string(REGEX REPLACE ":$" "" l "${l}")
    string(TOUPPER "${l}" l)
    string(APPEND body ".SH ${l}\n")
    set(in_item FALSE)
  elseif(NOT line STREQUAL "")
    roff_escape("${line}" l)
    string(STRIP "${l}" l)
    string(APPEND body "${l}\n.br\n")
    set(in_item FALSE)
  endif()
endforeach()
list(REMOVE_DUPLICATES options)

roff_escape("${NAME}" name)
roff_escape("${SUMMARY}" summary)
string(TOUPPER "${NAME}" upper)
file(WRITE ${MAN}.tmp
  ".\\\" Generated from `${NAME} --help` by cmake/CommandDocs.cmake; do not edit.\n"
  ".TH ${upper} 1 \"\" \"${NAME} ${VERSION}\" \"User Commands\"\n"
  ".SH NAME\n${name} \\- ${summary}\n"
  ".SH DESCRIPTION\n${body}"
  ".SH SEE ALSO\n.BR distlint (1),\n.BR distlint-rt (1),\n.BR clang-tidy (1)\n")
file(RENAME ${MAN}.tmp ${MAN})

string(MAKE_C_IDENTIFIER "${NAME}" fn)
list(JOIN options " " words)
# The first word of a command with sub-commands (distlint-rt run) is one.
set(complete_words "[[ \"\$cur\" == -* ]]")
if(has_subcommands)
  set(complete_words "[[ \"\$cur\" == -* || \$COMP_CWORD == 1 ]]")
endif()
file(WRITE ${COMPLETION}.tmp
  "# bash completion for ${NAME}; generated from `${NAME} --help` by\n"
  "# cmake/CommandDocs.cmake. Options, then files.\n"
  "_${fn}() {\n"
  "  local cur=\"\${COMP_WORDS[COMP_CWORD]}\"\n"
  "  if ${complete_words}; then\n"
  "    COMPREPLY=( \$(compgen -W \"${words}\" -- \"\$cur\") )\n"
  "  else\n"
  "    COMPREPLY=( \$(compgen -f -- \"\$cur\") )\n"
  "  fi\n"
  "}\n"
  "complete -o filenames -F _${fn} ${NAME}\n")
file(RENAME ${COMPLETION}.tmp ${COMPLETION})
