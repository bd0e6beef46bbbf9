# Fetches each pinned grammar tarball with `npm pack`, checks its SHA-512 against the pin in
# grammars/tree-sitter-<name>.cmake, unpacks its src/ into the build tree and defines a static
# library hg_grammar_<name> (third-party code: no warnings). Sets HG_GRAMMAR_<NAME>_SRC.
# -DHG_GRAMMAR_TARBALL_<NAME>=/path/to.tgz uses a tarball already on disk (still checked); for the
# Python grammar the older spelling -DHG_GRAMMAR_TARBALL=... works too. A package holding more than
# one grammar names the folder of its sources (HG_GRAMMAR_<NAME>_DIR, default src) and the other
# files they include (HG_GRAMMAR_<NAME>_EXTRA, paths in the package).
set(HG_GRAMMAR_PINS "${CMAKE_CURRENT_LIST_DIR}")
set(HG_GRAMMAR_ALLOC_H "${CMAKE_CURRENT_LIST_DIR}/../src/base/grammar_alloc.h")
function(hg_grammar name)
  string(TOUPPER "${name}" NAME)
  include(${HG_GRAMMAR_PINS}/tree-sitter-${name}.cmake)
  set(_pkg "${HG_GRAMMAR_${NAME}_PACKAGE}")
  set(_ver "${HG_GRAMMAR_${NAME}_VERSION}")
  set(_dir "${CMAKE_BINARY_DIR}/_grammar/${name}")
  set(_tgz "${_dir}/${_pkg}-${_ver}.tgz")
  set(_sub "${HG_GRAMMAR_${NAME}_DIR}")
  if(NOT _sub)
    set(_sub src)
  endif()
  set(_src "${_dir}/package/${_sub}")
  set(_local "${HG_GRAMMAR_TARBALL_${NAME}}")
  if(NOT _local AND name STREQUAL "python")
    set(_local "${HG_GRAMMAR_TARBALL}")
  endif()
  if(_local)
    file(MAKE_DIRECTORY "${_dir}")
    file(COPY_FILE "${_local}" "${_tgz}")
  endif()
  if(NOT EXISTS "${_tgz}")
    find_program(NPM_EXECUTABLE npm)
    if(NOT NPM_EXECUTABLE)
      message(FATAL_ERROR "npm is needed to fetch ${_pkg}@${_ver} (apt-get install npm), "
                          "or pass -DHG_GRAMMAR_TARBALL_${NAME}=<file.tgz>")
    endif()
    file(MAKE_DIRECTORY "${_dir}")
    # Not --silent: when the download fails, npm's own reason (a proxy, a certificate, a DNS error)
    # is what the user needs to see.
    execute_process(
      COMMAND "${NPM_EXECUTABLE}" pack --loglevel=error "${_pkg}@${_ver}"
      WORKING_DIRECTORY "${_dir}" RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_VARIABLE _err)
    if(NOT _rc EQUAL 0 OR NOT EXISTS "${_tgz}")
      string(STRIP "${_err}" _err)
      if(_err STREQUAL "")
        set(_err "npm exited with status ${_rc} and printed no reason")
      endif()
      message(FATAL_ERROR
        "npm pack ${_pkg}@${_ver} failed:\n${_err}\n"
        "What to do: behind a proxy, set npm's `proxy`/`https-proxy` (npm config set https-proxy URL); "
        "behind a proxy with its own certificate, trust its CA system-wide (cp ca.crt "
        "/usr/local/share/ca-certificates/ && update-ca-certificates: Debian's npm reads that store) "
        "or point npm at it (npm config set cafile /path/to/ca.pem); "
        "or download the tarball elsewhere (npm pack ${_pkg}@${_ver}) and configure with "
        "-DHG_GRAMMAR_TARBALL_${NAME}=/path/to/${_pkg}-${_ver}.tgz (its SHA-512 is still checked).")
    endif()
  endif()
  file(SHA512 "${_tgz}" _sum)
  if(NOT _sum STREQUAL HG_GRAMMAR_${NAME}_SHA512)
    file(REMOVE "${_tgz}")
    message(FATAL_ERROR "${_tgz}: SHA-512 ${_sum} does not match the pinned ${HG_GRAMMAR_${NAME}_SHA512} "
                        "(grammars/tree-sitter-${name}.cmake); refusing to build with it")
  endif()
  if(NOT EXISTS "${_src}/parser.c" OR "${_tgz}" IS_NEWER_THAN "${_src}/parser.c")
    set(_patterns package/${_sub}/tree_sitter/*)
    foreach(f IN LISTS HG_GRAMMAR_${NAME}_SOURCES)
      list(APPEND _patterns package/${_sub}/${f})
    endforeach()
    foreach(f IN LISTS HG_GRAMMAR_${NAME}_EXTRA)
      list(APPEND _patterns package/${f})
    endforeach()
    file(ARCHIVE_EXTRACT INPUT "${_tgz}" DESTINATION "${_dir}" PATTERNS ${_patterns})
  endif()
  list(TRANSFORM HG_GRAMMAR_${NAME}_SOURCES PREPEND "${_src}/" OUTPUT_VARIABLE _files)
  add_library(hg_grammar_${name} STATIC ${_files})
  target_include_directories(hg_grammar_${name} PRIVATE "${_src}")
  # The scanners allocate through hg_grammar_alloc: the header, included first, defines ts_malloc
  # and the others, which the grammars' tree_sitter/alloc.h keeps.
  target_compile_options(hg_grammar_${name} PRIVATE -w -include "${HG_GRAMMAR_ALLOC_H}")
  target_link_libraries(hg_grammar_${name} PRIVATE hg_grammar_alloc)
  set_target_properties(hg_grammar_${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  set(HG_GRAMMAR_${NAME}_SRC "${_src}" PARENT_SCOPE)
endfunction()
