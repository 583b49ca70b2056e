# Writes OUTPUT, a header holding each file of SOURCES (separated by "|") as a string constant named after the
# file (dense_gemm.cl -> dense_gemm_cl), so the .cl kernels travel inside the binary.
set(_text "#pragma once\n// Generated from the OpenCL sources by kernels/embed_sources.cmake: do not edit.\nnamespace fem::kernels::opencl {\n")
string(REPLACE "|" ";" _files "${SOURCES}")
foreach(_file IN LISTS _files)
  get_filename_component(_name "${_file}" NAME)
  string(MAKE_C_IDENTIFIER "${_name}" _id)
  file(READ "${_file}" _content)
  string(APPEND _text "inline constexpr const char* ${_id} = R\"fem_cl(${_content})fem_cl\";\n")
endforeach()
string(APPEND _text "}  // namespace fem::kernels::opencl\n")
file(WRITE "${OUTPUT}.tmp" "${_text}")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
