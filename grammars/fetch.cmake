# Fetch the pinned grammar tarball with `npm pack`, check its SHA-512 against the pinned value and
# unpack src/parser.c and src/scanner.c into the build tree. Sets HG_GRAMMAR_PYTHON_SRC.
# -DHG_GRAMMAR_TARBALL=/path/to.tgz uses a tarball already on disk (still checked).
include(${CMAKE_CURRENT_LIST_DIR}/tree-sitter-python.cmake)

set(_dir "${CMAKE_BINARY_DIR}/_grammar")
set(_tgz "${_dir}/${HG_GRAMMAR_PYTHON_PACKAGE}-${HG_GRAMMAR_PYTHON_VERSION}.tgz")
set(HG_GRAMMAR_PYTHON_SRC "${_dir}/package/src")

if(HG_GRAMMAR_TARBALL)
  file(MAKE_DIRECTORY "${_dir}")
  file(COPY_FILE "${HG_GRAMMAR_TARBALL}" "${_tgz}")
endif()
if(NOT EXISTS "${_tgz}")
  find_program(NPM_EXECUTABLE npm)
  if(NOT NPM_EXECUTABLE)
    message(FATAL_ERROR "npm is needed to fetch ${HG_GRAMMAR_PYTHON_PACKAGE}@${HG_GRAMMAR_PYTHON_VERSION} "
                        "(apt-get install npm), or pass -DHG_GRAMMAR_TARBALL=<file.tgz>")
  endif()
  file(MAKE_DIRECTORY "${_dir}")
  execute_process(
    COMMAND "${NPM_EXECUTABLE}" pack --silent "${HG_GRAMMAR_PYTHON_PACKAGE}@${HG_GRAMMAR_PYTHON_VERSION}"
    WORKING_DIRECTORY "${_dir}" RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0 OR NOT EXISTS "${_tgz}")
    message(FATAL_ERROR "npm pack ${HG_GRAMMAR_PYTHON_PACKAGE}@${HG_GRAMMAR_PYTHON_VERSION} failed: ${_err}")
  endif()
endif()

file(SHA512 "${_tgz}" _sum)
if(NOT _sum STREQUAL HG_GRAMMAR_PYTHON_SHA512)
  file(REMOVE "${_tgz}")
  message(FATAL_ERROR "${_tgz}: SHA-512 ${_sum} does not match the pinned ${HG_GRAMMAR_PYTHON_SHA512} "
                      "(grammars/tree-sitter-python.cmake); refusing to build with it")
endif()
if(NOT EXISTS "${HG_GRAMMAR_PYTHON_SRC}/parser.c" OR "${_tgz}" IS_NEWER_THAN "${HG_GRAMMAR_PYTHON_SRC}/parser.c")
  file(ARCHIVE_EXTRACT INPUT "${_tgz}" DESTINATION "${_dir}"
       PATTERNS package/src/parser.c package/src/scanner.c package/src/tree_sitter/*)
endif()
